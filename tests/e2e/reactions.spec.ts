import { AxeBuilder } from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { sessionOverlayPath, sessionPath, sessionPresentPath } from '../../src/shared/routes.ts';
import { addRoom, addSession } from '../support/programme.ts';
import { adminToken, askQuestion, joinAttendee } from '../support/speakers.ts';
import { ADMIN_PASSWORD, logInAsAdmin } from './admin-helpers.ts';
import { expectNoHorizontalScroll } from './qa-helpers.ts';
import {
  type RunningServer,
  consoleProblems,
  expect,
  join,
  startServer,
  test as base,
} from './fixtures.ts';

type Server = Awaited<ReturnType<typeof startServer>>;

/** A server of its own: the storm restarts it. */
const test = base.extend<object, { reactionServer: Server }>({
  reactionServer: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startServer({ ADMIN_PASSWORD });
      await use(server);
      await server.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ reactionServer }, use) => {
    await use(reactionServer.url);
  },
});

/** A talk on now (by the real clock), with a question on its projector. */
async function talkOnNow(server: RunningServer, title: string) {
  const token = await adminToken(server.url, ADMIN_PASSWORD);
  const room = await addRoom(server.url, token, `Hall ${title}`);
  const now = Date.now();
  const session = await addSession(server.url, token, {
    title,
    roomId: room._id,
    startsAt: new Date(now - 10 * 60_000).toISOString().replace(/\.\d+Z$/, 'Z'),
    endsAt: new Date(now + 50 * 60_000).toISOString().replace(/\.\d+Z$/, 'Z'),
  });
  await askQuestion(server.url, {
    sessionId: session._id,
    question: 'How do you keep a parser’s error messages kind to beginners?',
    askerUsername: 'ada',
  });
  return session;
}

/** Taps through the API, as many phones would: each attendee once. */
async function tapAll(server: RunningServer, tokens: string[], sessionId: string, emoji = '🎉') {
  await Promise.all(
    tokens.map((token) =>
      fetch(`${server.url}/api/reactions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ emoji, sessionId }),
      }),
    ),
  );
}

/** axe's findings on the page as it is now, one line each. */
async function axeFindings(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).setLegacyMode().analyze();
  return violations.map((violation) => `${violation.id}: ${violation.help}`);
}

const flying = (page: Page) => page.locator('[data-reactions-lane] > span');

/** Whether two boxes overlap. */
const overlaps = (
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Every emoji in flight now stays clear of `text`. */
async function expectClearOf(page: Page, text: Locator) {
  const textBox = await text.boundingBox();
  if (!textBox) throw new Error('The text is not on the screen');
  const boxes = await flying(page).evaluateAll((nodes) =>
    nodes.map((node) => {
      const rect = node.getBoundingClientRect();
      return { x: rect.x, y: rect.y, width: rect.width, height: rect.height };
    }),
  );
  expect(boxes.length).toBeGreaterThan(0);
  for (const box of boxes) expect(overlaps(box, textBox)).toBe(false);
}

test('a phone taps under the talk, and the presenter view and overlay show the burst beside the question', async ({
  browser,
  page,
  reactionServer,
}) => {
  test.slow();
  const problems = consoleProblems(page);
  const session = await talkOnNow(reactionServer, 'Parsers that forgive');

  const phone = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  const attendee = await phone.newPage();
  await join(attendee, 'tapper');
  await attendee.goto(sessionPath(session._id));
  const bar = attendee.getByRole('group', { name: `React to ${session.title}` });
  await expect(bar).toBeVisible();
  const clap = bar.getByRole('button', { name: 'React: Applause' });
  const box = await clap.boundingBox();
  expect(box?.width).toBeGreaterThanOrEqual(48);
  expect(box?.height).toBeGreaterThanOrEqual(48);
  await expectNoHorizontalScroll(attendee);
  await attendee.screenshot({ path: test.info().outputPath('phone-session-reaction-bar.png') });
  expect(await axeFindings(attendee)).toEqual([]);

  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.goto(sessionPresentPath(session._id));
  const questions = page.getByRole('list', { name: 'Top questions' });
  await expect(questions).toContainText('error messages kind');

  await clap.tap();
  await expect(attendee.getByRole('status')).toHaveText('Applause sent');
  await expect(flying(page).first()).toBeAttached();
  await expect(flying(page).first()).toHaveText('👏');
  await expectClearOf(page, questions);
  await expectClearOf(page, page.getByRole('heading', { level: 1 }));
  // A crowd: bigger emoji, still beside the questions.
  const crowd = await Promise.all(
    Array.from({ length: 12 }, (_, i) => joinAttendee(reactionServer.url, `crowd${i}`)),
  );
  await tapAll(reactionServer, crowd, session._id);
  await expect(flying(page).filter({ hasText: '🎉' }).first()).toBeAttached();
  await page.waitForTimeout(500);
  await expectClearOf(page, questions);
  await page.screenshot({ path: test.info().outputPath('presenter-1920-burst.png') });

  // A poll up beside the questions: the emoji rise over the top of its column, and its results
  // keep their room, the last option whole.
  const admin = await adminToken(reactionServer.url, ADMIN_PASSWORD);
  const asAdmin = { authorization: `Bearer ${admin}`, 'content-type': 'application/json' };
  const created = await fetch(`${reactionServer.url}/api/polls`, {
    method: 'POST',
    headers: asAdmin,
    body: JSON.stringify({
      sessionId: session._id,
      title: 'Which parser would you write first?',
      type: 'single',
      options: ['Earley', 'Packrat', 'LALR', 'Pratt'].map((text) => ({ text })),
      resultsVisible: true,
    }),
  });
  expect(created.status).toBe(201);
  const { _id: pollId } = (await created.json()) as { _id: string };
  const opened = await fetch(`${reactionServer.url}/api/polls/${pollId}`, {
    method: 'PATCH',
    headers: asAdmin,
    body: JSON.stringify({ state: 'open' }),
  });
  expect(opened.status).toBe(200);
  const poll = page.locator('[data-stage-poll]');
  await expect(poll.getByText('Pratt')).toBeVisible();
  await tapAll(reactionServer, crowd, session._id);
  await expect(flying(page).first()).toBeAttached();
  const card = await poll.boundingBox();
  const last = await poll.getByText('Pratt').boundingBox();
  expect(card && last && last.y + last.height <= card.y + card.height).toBe(true);
  await expectClearOf(page, questions);
  await page.screenshot({ path: test.info().outputPath('presenter-1920-burst-poll.png') });

  // The overlay: the emoji rise above the lower third, never over its question.
  await page.goto(sessionOverlayPath(session._id));
  const question = page.getByRole('article', { name: 'Top question' });
  await expect(question).toContainText('error messages kind');
  await page.waitForTimeout(300);
  await tapAll(reactionServer, crowd.slice(0, 6), session._id, '❤️');
  await clap.tap();
  await expect(flying(page).first()).toBeAttached();
  await page.waitForTimeout(400);
  await expectClearOf(page, question);
  await page.screenshot({ path: test.info().outputPath('overlay-1920-burst.png') });

  // Reduced motion: nothing flies; the counts show instead.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(sessionPresentPath(session._id));
  await expect(questions).toBeVisible();
  await page.waitForTimeout(300);
  await tapAll(reactionServer, crowd.slice(6), session._id, '❤️');
  const counts = page.getByRole('list', { name: 'Reactions' });
  await expect(counts.getByLabel('Love: 6')).toBeVisible();
  await expect(flying(page)).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('presenter-1920-reduced-motion.png') });
  expect(await axeFindings(page)).toEqual([]);

  // /home offers the talk last opened while it is on.
  await attendee.goto('/home');
  await expect(attendee.getByText(`On now: ${session.title}`)).toBeVisible();
  await expect(attendee.getByRole('group', { name: `React to ${session.title}` })).toBeVisible();
  await attendee.screenshot({ path: test.info().outputPath('phone-home-reaction-bar.png') });
  await phone.close();
  expect(problems).toEqual([]);
});

test('a storm of taps keeps the page’s nodes bounded, and the burst comes back after a restart', async ({
  page,
  reactionServer,
}) => {
  test.setTimeout(180_000);
  const session = await talkOnNow(reactionServer, 'Storms and sockets');
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.goto(sessionPresentPath(session._id));
  await expect(page.getByRole('list', { name: 'Top questions' })).toBeVisible();
  const nodes = () => page.evaluate(() => document.getElementsByTagName('*').length);
  const heap = () =>
    page.evaluate(
      () =>
        (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory
          ?.usedJSHeapSize ?? 0,
    );
  const tappers = await Promise.all(
    Array.from({ length: 30 }, (_, i) => joinAttendee(reactionServer.url, `storm${i}`)),
  );
  // The page settled, a first burst flown and gone: what the storm is measured against. The
  // screen watches the session once its code and its language have loaded: a tap before that
  // reaches nobody, so the first is tapped again until it shows.
  let attempt = 0;
  await expect(async () => {
    await tapAll(reactionServer, tappers.slice(attempt % 5, (attempt % 5) + 1), session._id, '👏');
    attempt += 1;
    await expect(flying(page).first()).toBeAttached({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await expect(flying(page)).toHaveCount(0, { timeout: 10_000 });
  const before = await nodes();
  const emoji = ['👏', '❤️', '😂', '😮', '🤔', '🎉'];
  let most = 0;
  const heaps: number[] = [];
  // A minute of 30 people tapping once a second, six kinds at once.
  for (let second = 0; second < 60; second += 1) {
    await tapAll(reactionServer, tappers, session._id, emoji[second % emoji.length]);
    most = Math.max(most, await flying(page).count());
    if (second % 10 === 9) heaps.push(await heap());
    await page.waitForTimeout(1000);
  }
  expect(most).toBeGreaterThan(0);
  expect(most).toBeLessThanOrEqual(36);
  // Once the taps stop, every emoji lands and goes.
  await expect(flying(page)).toHaveCount(0, { timeout: 10_000 });
  expect(Math.abs((await nodes()) - before)).toBeLessThanOrEqual(5);
  // The heap does not grow with the taps: the last reading within a margin of the first.
  const [first = 0] = heaps;
  if (first > 0) expect(heaps.at(-1) ?? 0).toBeLessThan(first * 1.5);

  // The server restarts: the screen re-joins its session and shows the taps again.
  await reactionServer.restart(500);
  const after = await joinAttendee(reactionServer.url, 'after-restart');
  await expect(async () => {
    await tapAll(reactionServer, [after], session._id, '👏');
    await expect(flying(page).first()).toBeAttached({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
});

test('the organiser picks the emoji and turns reactions off; an open talk page follows at once', async ({
  browser,
  page,
  reactionServer,
}) => {
  test.slow();
  const session = await talkOnNow(reactionServer, 'Settings live');
  const phone = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  const attendee = await phone.newPage();
  await join(attendee, 'follower');
  await attendee.goto(sessionPath(session._id));
  const bar = attendee.getByRole('group', { name: `React to ${session.title}` });
  await expect(bar.getByRole('button')).toHaveCount(6);

  await page.setViewportSize({ width: 1920, height: 1080 });
  await logInAsAdmin(page, ADMIN_PASSWORD, 'settings');
  await expect(page.getByRole('heading', { name: 'Reactions' })).toBeVisible();
  const emoji = page.getByRole('group', { name: /Emoji offered/ });
  // Laughter out, fire in.
  await emoji.getByText('😂').click();
  await emoji.getByText('🔥').click();
  await expect(page.getByText('Emoji offered (6 of at most 8)')).toBeVisible();
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(bar.getByRole('button', { name: 'React: Fire' })).toBeVisible();
  await expect(bar.getByRole('button', { name: 'React: Laughter' })).toHaveCount(0);
  await page.getByRole('heading', { name: 'Reactions' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('console-1920-reactions.png') });

  await page.getByRole('switch', { name: 'Reactions during talks' }).click();
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(bar).toHaveCount(0);
  // Back on: the last choice returns.
  await page.getByRole('switch', { name: 'Reactions during talks' }).click();
  await expect(page.getByText('Emoji offered (6 of at most 8)')).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalScroll(page);
  await page.getByRole('heading', { name: 'Reactions' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('console-phone-reactions.png') });
  expect(await axeFindings(page)).toEqual([]);
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(bar.getByRole('button')).toHaveCount(6);
  await phone.close();
});
