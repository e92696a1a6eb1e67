import {
  roomPresentPath,
  sessionOverlayPath,
  sessionPresentPath,
} from '../../src/shared/routes.ts';
import { addRoom, addSession, setTimeZone } from '../support/programme.ts';
import { addSpeaker, adminToken, askQuestion } from '../support/speakers.ts';
import { ADMIN_PASSWORD } from './admin-helpers.ts';
import { uniqueName } from './qa-helpers.ts';
import {
  type RunningServer,
  consoleProblems,
  expect,
  startServer,
  test as base,
} from './fixtures.ts';

type Server = Awaited<ReturnType<typeof startServer>>;

/** A server of its own: the spec restarts it, and seeds the programme as the admin. */
const test = base.extend<object, { projectorServer: Server }>({
  projectorServer: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startServer({ ADMIN_PASSWORD });
      await use(server);
      await server.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ projectorServer }, use) => {
    await use(projectorServer.url);
  },
});

/** A room with two talks in Berlin's winter time, one speaker each, a question to each talk. */
async function seed(server: RunningServer) {
  const token = await adminToken(server.url, ADMIN_PASSWORD);
  await setTimeZone(server.url, token, 'Europe/Berlin');
  const [grace, linus] = await Promise.all([
    addSpeaker(server.url, uniqueName('Grace')),
    addSpeaker(server.url, uniqueName('Linus')),
  ]);
  const room = await addRoom(server.url, token, 'Hall Lovelace');
  const first = await addSession(server.url, token, {
    title: 'Compilers for everyone',
    roomId: room._id,
    startsAt: '2026-11-27T10:00:00+01:00',
    endsAt: '2026-11-27T10:45:00+01:00',
    speakerIds: [grace._id],
  });
  const second = await addSession(server.url, token, {
    title: 'Kernels without fear',
    roomId: room._id,
    startsAt: '2026-11-27T11:00:00+01:00',
    endsAt: '2026-11-27T11:45:00+01:00',
    speakerIds: [linus._id],
  });
  // Each question asks the talk, as a phone that scanned its projector's code does.
  const ask = (session: typeof first, question: string, askerUsername: string) =>
    askQuestion(server.url, { sessionId: session._id, question, askerUsername });
  await ask(first, 'Which parser generator do you reach for first?', 'ada');
  await ask(second, 'How do you review a patch series this long?', 'ken');
  return { room, first, second, grace, ask };
}

test('a room projector follows the clock from talk to talk, live, and the overlay is transparent', async ({
  page,
  projectorServer,
}) => {
  test.slow();
  const problems = consoleProblems(page);
  const { room, first, second, grace, ask } = await seed(projectorServer);
  await page.setViewportSize({ width: 1920, height: 1080 });
  // 10:20 in Berlin: the first talk is on.
  await page.clock.install({ time: new Date('2026-11-27T10:20:00+01:00') });
  await page.goto(roomPresentPath(room._id));
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toHaveText(first.title);
  await expect(page.getByText('Hall Lovelace · 10:00')).toBeVisible();
  await expect(page.getByText(grace.name)).toBeVisible();
  await expect(page.getByRole('list', { name: 'Top questions' })).toContainText(
    'Which parser generator',
  );
  const code = page.getByRole('img', { name: /^QR code: / });
  await expect(code).toHaveAttribute(
    'aria-label',
    `QR code: ${projectorServer.url}/sessions/${first._id}`,
  );
  // The page is never reloaded: this mark would go with it.
  await page.evaluate(() => Object.assign(window, { stillTheSamePage: true }));

  // 10:50: between the talks, what is next and when.
  await page.clock.fastForward('30:00');
  const next = page.getByRole('region', { name: 'Next session' });
  await expect(next.getByText('Next:')).toBeVisible();
  await expect(next.getByRole('heading', { name: second.title })).toBeVisible();
  await expect(next).toContainText('at 11:00');
  await expect(code).toHaveAttribute(
    'aria-label',
    `QR code: ${projectorServer.url}/sessions/${second._id}`,
  );

  // 11:05: the second talk, its speaker's question, and a new one arriving live.
  await page.clock.fastForward('15:00');
  await expect(heading).toHaveText(second.title);
  const top = page.getByRole('list', { name: 'Top questions' });
  await expect(top).toContainText('How do you review a patch series');
  await expect(top).not.toContainText('Which parser generator');
  expect(await page.evaluate(() => 'stillTheSamePage' in window)).toBe(true);

  // The server restarts: the projector comes back live by itself.
  await projectorServer.restart(500);
  await ask(second, 'Back after the restart: rebase or merge?', 'grace');
  await expect(top).toContainText('Back after the restart', { timeout: 20_000 });

  // After the day's last talk: a calm end.
  await page.clock.fastForward('45:00');
  await expect(heading).toHaveText('That’s all in this room. Thank you for coming!');
  expect(await page.evaluate(() => 'stillTheSamePage' in window)).toBe(true);

  // One session whatever the clock, and the overlay on a transparent page.
  await page.goto(sessionPresentPath(first._id));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(first.title);
  await page.goto(sessionOverlayPath(second._id));
  await expect(page.getByRole('heading', { name: second.title })).toBeVisible();
  await expect(page.getByRole('article', { name: 'Top question' })).toContainText(
    /patch series|rebase or merge/,
  );
  const backgrounds = await page.evaluate(() => [
    getComputedStyle(document.documentElement).backgroundColor,
    getComputedStyle(document.body).backgroundColor,
  ]);
  expect(backgrounds).toEqual(['rgba(0, 0, 0, 0)', 'rgba(0, 0, 0, 0)']);
  // Only what a restart explains: the socket and requests cut while the server was away.
  expect(
    problems.filter((problem) => !/ERR_CONNECTION_REFUSED|WebSocket|503/.test(problem)),
  ).toEqual([]);
});
