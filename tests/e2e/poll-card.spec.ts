import os from 'node:os';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import type { Poll, PollCreateRequest, PollVoteRequest } from '../../src/shared/schemas/poll.ts';
import { ADMIN_PASSWORD } from './admin-helpers.ts';
import { type RunningServer, expect, join, startServer, test as base } from './fixtures.ts';
import {
  adminToken,
  createSessionViaApi,
  openPollViaApi,
  patchPollViaApi,
  voteViaApi,
} from './poll-helpers.ts';

/** The polls' specs share one server with a known admin password. */
const test = base.extend<object, { pollServer: RunningServer }>({
  pollServer: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startServer({ ADMIN_PASSWORD });
      await use(server);
      await server.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ pollServer }, use) => {
    await use(pollServer.url);
  },
});

/** Where the screens' pictures go (looked at by a person; not compared). */
const SHOTS = process.env.POLL_SHOTS_DIR ?? path.join(os.tmpdir(), 'confab-poll-shots');

const PHONE = { width: 390, height: 844 };

/** A session on now (by the real clock), for the polls of a test. */
async function sessionOnNow(request: APIRequestContext, token: string, title: string) {
  const now = Date.now();
  return createSessionViaApi(request, token, title, {
    startsAt: new Date(now - 30 * 60_000),
    endsAt: new Date(now + 60 * 60_000),
  });
}

/** One poll of every type, each with a few answers, in a session of its own. */
async function pollsOfEveryType(request: APIRequestContext, token: string, sessionId: string) {
  const options = (...texts: string[]) => texts.map((text, index) => ({ id: `o${index}`, text }));
  const made: { poll: Poll; answers: PollVoteRequest[] }[] = [];
  const add = async (poll: Omit<PollCreateRequest, 'sessionId'>, answers: PollVoteRequest[]) => {
    made.push({
      poll: await openPollViaApi(request, token, { sessionId, resultsVisible: true, ...poll }),
      answers,
    });
  };
  await add(
    {
      title: 'Which language for the next project?',
      type: 'single',
      options: options('Rust', 'Go', 'TypeScript'),
    },
    [{ optionIds: ['o0'] }, { optionIds: ['o0'] }, { optionIds: ['o2'] }, { optionIds: ['o1'] }],
  );
  await add(
    {
      title: 'Which talks did you enjoy?',
      type: 'multiple',
      options: options('Keynote', 'Typed sockets', 'Workshop'),
    },
    [{ optionIds: ['o0', 'o1'] }, { optionIds: ['o1'] }, { optionIds: ['o1', 'o2'] }],
  );
  await add({ title: 'How was the talk?', type: 'rating', maxRating: 5 }, [
    { rating: 5 },
    { rating: 4 },
    { rating: 4 },
    { rating: 2 },
  ]);
  await add({ title: 'One word for this conference', type: 'wordcloud' }, [
    { text: 'inspiring, fun' },
    { text: 'fun; crowded' },
    { text: 'Inspiring' },
    { text: 'coffee' },
  ]);
  await add({ title: 'What should we do better next year?', type: 'open' }, [
    { text: 'More vegetarian food, please.' },
    { text: 'Longer breaks between the talks' },
  ]);
  await add(
    {
      title: 'Rank the topics for tomorrow',
      type: 'ranking',
      options: options('Security', 'Performance', 'Accessibility'),
    },
    [{ ranking: ['o2', 'o0', 'o1'] }, { ranking: ['o2', 'o1', 'o0'] }],
  );
  await add(
    {
      title: 'Which year was the first web page published?',
      type: 'quiz',
      options: options('1989', '1991', '1995'),
      correctOptionIds: ['o1'],
    },
    [{ optionIds: ['o1'] }, { optionIds: ['o0'] }],
  );
  for (const [index, { poll, answers }] of made.entries()) {
    for (const [n, answer] of answers.entries()) {
      await voteViaApi(request, poll._id, `voter${index}x${n}`, answer);
    }
  }
  return made.map(({ poll }) => poll);
}

/** A poll's card on the page, by its question. */
const card = (page: Page, title: string) => page.getByRole('article', { name: title });

/** A picture of one card, in the middle of the screen (clear of the sticky header). */
async function shoot(locator: ReturnType<typeof card>, name: string): Promise<void> {
  await locator.evaluate((element) => element.scrollIntoView({ block: 'center' }));
  await locator.screenshot({ path: path.join(SHOTS, name) });
}

test('an attendee answers a poll on /home, keeps the answer over a reload and changes it', async ({
  page,
  request,
}) => {
  const token = await adminToken(request);
  const title = 'Tabs or spaces?';
  const poll = await openPollViaApi(request, token, {
    sessionId: null,
    title,
    type: 'single',
    options: [
      { id: 'tabs', text: 'Tabs' },
      { id: 'spaces', text: 'Spaces' },
    ],
    resultsVisible: true,
  });
  await page.setViewportSize(PHONE);
  await join(page, 'pollster');

  const single = card(page, title);
  await expect(single.getByText('Open', { exact: true })).toBeVisible();
  const send = single.getByRole('button', { name: 'Send answer' });
  await expect(send).toBeDisabled();
  await single.getByRole('radio', { name: 'Tabs' }).click();
  await send.click();
  await expect(single.getByText('Answer sent')).toBeVisible();
  await expect(single.getByText('Your answer: Tabs')).toBeVisible();
  // The results mark the attendee's own option.
  await expect(single.getByRole('listitem').filter({ hasText: 'Tabs' })).toContainText('You');
  await expect(single.getByText('100%')).toBeVisible();

  await page.reload();
  await expect(single.getByText('Your answer: Tabs')).toBeVisible();
  await expect(single.getByRole('button', { name: 'Send answer' })).toHaveCount(0);

  await single.getByRole('button', { name: 'Change answer' }).click();
  // The form starts from the answer given.
  await expect(single.getByRole('radio', { name: 'Tabs' })).toHaveAttribute('aria-checked', 'true');
  await single.getByRole('radio', { name: 'Spaces' }).click();
  await single.getByRole('button', { name: 'Send new answer' }).click();
  await expect(single.getByText('Your answer: Spaces')).toBeVisible();
  // One attendee, one answer: the second replaced the first.
  const polls = await request.get('/api/polls?event=1');
  const now = ((await polls.json()) as Poll[]).find((item) => item._id === poll._id);
  expect(now?.voters).toBe(1);
  expect(now?.results).toEqual({
    options: [
      { id: 'tabs', count: 0 },
      { id: 'spaces', count: 1 },
    ],
  });

  // A poll opened now appears without a reload; closed, it turns to its results.
  const later = await openPollViaApi(request, token, {
    sessionId: null,
    title: 'Coffee or tea?',
    type: 'single',
    options: [{ text: 'Coffee' }, { text: 'Tea' }],
    resultsVisible: true,
  });
  await expect(card(page, 'Coffee or tea?').getByRole('radio', { name: 'Tea' })).toBeVisible();
  await patchPollViaApi(request, token, later._id, { state: 'closed' });
  await expect(card(page, 'Coffee or tea?').getByText('Closed', { exact: true })).toBeVisible();
  await expect(card(page, 'Coffee or tea?').getByRole('radio')).toHaveCount(0);
});

test('a talk’s page takes a word cloud and a ranking', async ({ page, request }) => {
  const token = await adminToken(request);
  const sessionId = await sessionOnNow(request, token, 'Words and orders');
  await openPollViaApi(request, token, {
    sessionId,
    title: 'Three words for this talk',
    type: 'wordcloud',
    resultsVisible: true,
  });
  await openPollViaApi(request, token, {
    sessionId,
    title: 'Rank the topics',
    type: 'ranking',
    options: [
      { id: 'sec', text: 'Security' },
      { id: 'perf', text: 'Performance' },
      { id: 'a11y', text: 'Accessibility' },
    ],
    resultsVisible: true,
  });
  await page.setViewportSize(PHONE);
  await join(page, 'wordsmith');
  await page.goto(`/sessions/${sessionId}`);

  const cloud = card(page, 'Three words for this talk');
  await cloud.getByLabel('Word 1').fill('Rust');
  await cloud.getByLabel('Word 2 (optional)').fill('a, b');
  await expect(cloud.getByRole('alert')).toContainText('without commas');
  await expect(cloud.getByRole('button', { name: 'Send answer' })).toBeDisabled();
  await cloud.getByLabel('Word 2 (optional)').fill('type safety');
  await cloud.getByRole('button', { name: 'Send answer' }).click();
  await expect(cloud.getByText('Your answer: Rust, type safety')).toBeVisible();
  const words = cloud.getByRole('list', { name: 'Word cloud' });
  await expect(words.getByRole('listitem').filter({ hasText: 'rust' })).toContainText(
    'Your answer',
  );
  await expect(words.getByRole('listitem')).toHaveCount(2);

  const ranking = card(page, 'Rank the topics');
  await ranking.getByRole('button', { name: 'Move Accessibility up' }).click();
  await ranking.getByRole('button', { name: 'Move Accessibility up' }).click();
  await expect(ranking.getByText('Accessibility: now number 1 of 3')).toBeVisible();
  await expect(ranking.getByRole('button', { name: 'Move Accessibility up' })).toBeDisabled();
  await ranking.getByRole('button', { name: 'Move Performance up' }).click();
  await ranking.getByRole('button', { name: 'Move Security up' }).click();
  await expect(ranking.getByRole('button', { name: 'Move Performance down' })).toBeDisabled();
  await ranking.getByRole('button', { name: 'Send answer' }).click();
  await expect(
    ranking.getByText('Your answer: 1. Accessibility 2. Security 3. Performance'),
  ).toBeVisible();
  // Borda: 2 points for the first, 1 for the second; the results lead with the first.
  await expect(ranking.getByRole('listitem').first()).toContainText('Accessibility');
  await expect(ranking.getByRole('listitem').first()).toContainText('Your #1');
});

test('a quiz closed by its owner shows the right answer in the Q&A room', async ({
  page,
  request,
}) => {
  const token = await adminToken(request);
  const sessionId = await sessionOnNow(request, token, 'Quiz time');
  const quiz = await openPollViaApi(request, token, {
    sessionId,
    title: 'Which year was the first web page published?',
    type: 'quiz',
    options: [
      { id: 'y89', text: '1989' },
      { id: 'y91', text: '1991' },
      { id: 'y95', text: '1995' },
    ],
    correctOptionIds: ['y91'],
    resultsVisible: true,
  });
  await page.setViewportSize(PHONE);
  await join(page, 'quizzer');
  await page.goto(`/speakerscard?session=${sessionId}`);

  const question = card(page, quiz.title);
  await question.getByRole('checkbox', { name: '1991' }).click();
  await question.getByRole('button', { name: 'Send answer' }).click();
  await expect(question.getByText('Answer sent')).toBeVisible();
  // While it is open, nobody is told which is right.
  await expect(question.getByText('Correct')).toHaveCount(0);

  await patchPollViaApi(request, token, quiz._id, { state: 'closed' });
  await expect(question.getByText('You got it right!')).toBeVisible();
  await expect(question.getByRole('listitem').filter({ hasText: '1991' })).toContainText('Correct');
  const leaderboard = question.getByRole('region', { name: 'Leaderboard' });
  await expect(leaderboard.getByRole('listitem').first()).toContainText('quizzer');
});

test('every type’s card and results on a phone', async ({ page, request }) => {
  const token = await adminToken(request);
  const sessionId = await sessionOnNow(request, token, 'Results of every kind');
  const polls = await pollsOfEveryType(request, token, sessionId);
  await page.setViewportSize(PHONE);
  await join(page, 'viewer');
  await page.goto(`/sessions/${sessionId}`);
  for (const poll of polls) {
    const shown = card(page, poll.title);
    await expect(shown.getByRole('button', { name: 'Send answer' })).toBeVisible();
    await shoot(shown, `card-${poll.type}.png`);
  }
  // Answered: the single choice with the attendee's option marked.
  const single = card(page, polls[0]?.title ?? '');
  await single.getByRole('radio').first().click();
  await single.getByRole('button', { name: 'Send answer' }).click();
  await expect(single.getByText('Answer sent')).toBeVisible();
  await shoot(single, 'answered-single.png');

  for (const poll of polls) await patchPollViaApi(request, token, poll._id, { state: 'closed' });
  for (const poll of polls) {
    const shown = card(page, poll.title);
    await expect(shown.getByText('Closed', { exact: true })).toBeVisible();
    await shoot(shown, `results-${poll.type}.png`);
  }
  await page.screenshot({ path: path.join(SHOTS, 'session-phone-light.png'), fullPage: true });
  await page.getByRole('button', { name: /Switch to dark mode/ }).click();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await shoot(card(page, polls[0]?.title ?? ''), 'results-single-dark.png');
  await shoot(card(page, polls[2]?.title ?? ''), 'results-rating-dark.png');
  await page.screenshot({ path: path.join(SHOTS, 'session-phone-dark.png'), fullPage: true });
});
