import type { APIRequestContext, Page } from '@playwright/test';
import { type RunningServer, expect, join, startServer, test as base } from './fixtures.ts';
import { ADMIN_PASSWORD } from './admin-helpers.ts';
import {
  type CreatedSpeaker,
  askViaApi,
  createSpeaker,
  expectNoHorizontalScroll,
  uniqueName,
} from './qa-helpers.ts';

/** The programme's specs share one server, with a known admin password, seeded once. */
const test = base.extend<object, { programmeServer: RunningServer }>({
  programmeServer: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startServer({ ADMIN_PASSWORD });
      await use(server);
      await server.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ programmeServer }, use) => {
    await use(programmeServer.url);
  },
});

// A phone in Los Angeles, reading a programme in Berlin: every time is Berlin's.
test.use({ timezoneId: 'America/Los_Angeles', locale: 'en-GB' });
// One seeded programme, read by each test in turn.
test.describe.configure({ mode: 'default' });

/** "Now" for the browser: Thursday 3 December 2026, 10:30 in Berlin (CET, +01:00). */
const NOW = new Date('2026-12-03T10:30:00+01:00');

interface Seeded {
  token: string;
  ada: CreatedSpeaker;
  grace: CreatedSpeaker;
  sessions: Record<string, string>;
}

let seeded: Seeded | undefined;

async function admin(request: APIRequestContext): Promise<string> {
  const response = await request.post('/api/admin/login', {
    data: { username: 'admin', password: ADMIN_PASSWORD },
  });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { token: string }).token;
}

/** Seeds the programme through the admin's API, once per server. */
async function seed(request: APIRequestContext): Promise<Seeded> {
  if (seeded) return seeded;
  const token = await admin(request);
  const headers = { authorization: `Bearer ${token}` };
  const settings = await request.put('/api/admin/settings', {
    headers,
    data: { timezone: 'Europe/Berlin' },
  });
  expect(settings.ok()).toBe(true);
  const ada = await createSpeaker(request, uniqueName('Ada'));
  const grace = await createSpeaker(request, uniqueName('Grace'));
  const room = async (name: string, position: number) => {
    const response = await request.post('/api/admin/rooms', { headers, data: { name, position } });
    expect(response.status()).toBe(201);
    return ((await response.json()) as { _id: string })._id;
  };
  const hall = await room('Hall', 0);
  const studio = await room('Studio', 1);
  const sessions: Record<string, string> = {};
  const session = async (
    title: string,
    roomId: string,
    day: string,
    from: string,
    to: string,
    extra: Record<string, unknown> = {},
  ) => {
    const response = await request.post('/api/admin/sessions', {
      headers,
      data: {
        title,
        roomId,
        startsAt: `2026-12-${day}T${from}:00+01:00`,
        endsAt: `2026-12-${day}T${to}:00+01:00`,
        ...extra,
      },
    });
    expect(response.status(), await response.text()).toBe(201);
    sessions[title] = ((await response.json()) as { _id: string })._id;
  };
  await session('Opening keynote', hall, '03', '09:00', '10:00');
  await session('Typed sockets', hall, '03', '10:15', '11:00', {
    speakerIds: [ada._id],
    track: 'Web',
    abstract: 'Why types stop at the wire.\nAnd how to carry them across.',
  });
  await session('The talk that was not', hall, '03', '11:15', '12:00', { cancelled: true });
  await session('Lunch lightning talks', hall, '03', '12:00', '12:45');
  await session('Hands-on workshop', studio, '03', '10:00', '11:30', { speakerIds: [grace._id] });
  await session('Afternoon panel', studio, '03', '13:00', '14:00', {
    speakerIds: [grace._id, ada._id],
  });
  await session('Day two opening', hall, '04', '09:30', '10:30');
  seeded = { token, ada, grace, sessions };
  return seeded;
}

/** Opens a page at "now" (the browser's clock moved, the server's as it is). */
async function openAt(page: Page, path: string): Promise<void> {
  await page.clock.install({ time: NOW });
  await page.goto(path);
}

test('the schedule: now and next per room, the day, the zone, a cancelled talk', async ({
  page,
  request,
}) => {
  await seed(request);
  await openAt(page, '/schedule');
  await expect(page.getByRole('heading', { level: 1, name: 'Schedule' })).toBeVisible();
  await expect(page.getByText('Times in Europe/Berlin (CET)')).toBeVisible();

  // Now and next, per room, in Berlin's times (the phone is in Los Angeles, 01:30 there).
  const nowNext = page.getByRole('region', { name: 'Now and next' });
  const hall = nowNext.getByRole('region', { name: 'Hall' });
  await expect(hall.getByRole('link', { name: /Typed sockets/ })).toContainText('Now 10:15–11:00');
  // The cancelled talk is not next: the one after it is.
  await expect(hall.getByRole('link', { name: /Lunch lightning talks/ })).toContainText(
    'Next 12:00–12:45',
  );
  const studio = nowNext.getByRole('region', { name: 'Studio' });
  await expect(studio.getByRole('link', { name: /Hands-on workshop/ })).toContainText('Now');
  await expect(studio.getByRole('link', { name: /Afternoon panel/ })).toContainText('Next');

  // The day's programme: today's tab chosen, every talk of the day by time, with its room.
  const today = page.getByRole('tab', { name: 'Thu 3 Dec · Today' });
  await expect(today).toHaveAttribute('aria-selected', 'true');
  const programme = page.getByRole('tabpanel');
  await expect(programme.getByRole('link')).toHaveCount(6);
  await expect(
    programme.getByRole('link', { name: '09:00–10:00 Opening keynote Hall', exact: true }),
  ).toBeVisible();
  const cancelled = programme.getByRole('link', {
    name: '11:15–12:00 Cancelled The talk that was not Hall',
    exact: true,
  });
  await expect(cancelled).toContainText('Cancelled');
  await expect(cancelled.getByText('The talk that was not')).toHaveCSS(
    'text-decoration-line',
    'line-through',
  );
  await page.getByRole('tab', { name: 'Fri 4 Dec' }).click();
  await expect(programme.getByRole('link')).toHaveCount(1);
  await expect(programme.getByRole('link', { name: /Day two opening/ })).toBeVisible();

  // An hour on: the workshop is over and the hall has nothing on (its talk is cancelled).
  await page.clock.fastForward('01:00:00');
  await expect(hall.getByRole('link', { name: /Lunch lightning talks/ })).toContainText('Next');
  await expect(hall.getByRole('link')).toHaveCount(1);
  await expect(studio.getByRole('link', { name: /Hands-on workshop/ })).toBeHidden();
});

test('a talk: its page, its speakers and its Q&A, and the attendee’s own questions marked', async ({
  page,
  request,
}) => {
  const { ada, sessions } = await seed(request);
  const username = uniqueName('asker').replace(/\s/g, '_');
  await join(page, username);
  await askViaApi(request, ada, 'How far can the types go?', username);

  // The header leads to the programme.
  await openAt(page, '/home');
  await page.getByRole('banner').getByRole('link', { name: 'Schedule' }).click();
  await expect(page).toHaveURL('/schedule');
  const card = page.getByRole('tabpanel').getByRole('link', { name: /Typed sockets/ });
  await expect(card).toContainText('You asked 1');
  await card.click();

  await expect(page).toHaveURL(`/sessions/${sessions['Typed sockets']}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Typed sockets' })).toBeVisible();
  await expect(page.getByText('Thu 3 Dec, 10:15–11:00')).toBeVisible();
  await expect(page.getByText('Times in Europe/Berlin (CET)')).toBeVisible();
  await expect(page.getByText('Hall', { exact: true })).toBeVisible();
  await expect(page.getByText('Web', { exact: true })).toBeVisible();
  // The abstract keeps its line break.
  await expect(page.getByText(/Why types stop at the wire\./)).toHaveCSS('white-space', 'pre-wrap');
  const speaker = page.getByRole('article', { name: ada.name });
  await expect(speaker).toContainText('Builds things for the web.');

  // The talk's Q&A is its own questions: the one put to Ada with no talk named is not here.
  const qa = page.getByRole('region', { name: 'Q&A' });
  await expect(qa.getByText('No questions yet.')).toBeVisible();
  // "Ask" opens the dialog with the talk chosen.
  await qa.getByRole('button', { name: 'Ask' }).click();
  const dialog = page.getByRole('dialog', { name: 'Ask a Question' });
  await expect(dialog.getByLabel('Speaker')).toHaveValue(`session:${sessions['Typed sockets']}`);
  await dialog.getByPlaceholder('Type your question here…').fill('Do the types reach the socket?');
  await dialog.getByRole('button', { name: 'Submit Question' }).click();
  await page
    .getByRole('dialog', { name: 'Thank you!' })
    .getByRole('button', { name: 'Done' })
    .click();

  const question = qa.getByRole('article', { name: `Question from ${username}` });
  await expect(question).toContainText('Do the types reach the socket?');
  await expect(question).toContainText('You');
  await question.getByRole('button', { name: /Upvote/ }).click();
  await expect(question.getByRole('button', { name: /Upvote: 1 vote$/ })).toHaveAttribute(
    'aria-pressed',
    'true',
  );

  // Ada's other talk, a panel, has questions of its own: not this one.
  await page.goto(`/sessions/${sessions['Afternoon panel']}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Afternoon panel' })).toBeVisible();
  const panelQa = page.getByRole('region', { name: 'Q&A' });
  await expect(panelQa.getByText('No questions yet.')).toBeVisible();
  await expect(page.getByText('Do the types reach the socket?')).toBeHidden();
  // Its "Ask" asks the panel as a whole.
  await panelQa.getByRole('button', { name: 'Ask' }).click();
  await expect(dialog.getByLabel('Speaker')).toHaveValue(`session:${sessions['Afternoon panel']}`);
  await expect(dialog.getByRole('radio', { name: 'The whole panel' })).toBeChecked();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // The schedule counts the question where it was asked.
  await page.getByRole('banner').getByRole('link', { name: 'Schedule' }).click();
  await expect(
    page.getByRole('tabpanel').getByRole('link', { name: /Typed sockets/ }),
  ).toContainText('You asked 2');
  await expect(
    page.getByRole('tabpanel').getByRole('link', { name: /Afternoon panel/ }),
  ).not.toContainText('You asked');

  // An unknown talk says so.
  await page.goto('/sessions/0193a0b2-7c1e-7b7a-9f3e-5d1c2a3b4c5d');
  await expect(page.getByText('Session not found')).toBeVisible();
  await page.getByRole('link', { name: 'See the schedule' }).click();
  await expect(page).toHaveURL('/schedule');
});

test('an edit of the programme reaches the open pages without a reload', async ({
  page,
  request,
}) => {
  const { token, sessions } = await seed(request);
  const headers = { authorization: `Bearer ${token}` };
  const id = sessions['Lunch lightning talks'] ?? '';
  await page.setViewportSize({ width: 390, height: 844 });
  await openAt(page, '/schedule');
  const hall = page
    .getByRole('region', { name: 'Now and next' })
    .getByRole('region', { name: 'Hall' });
  await expect(hall.getByRole('link', { name: /Lunch lightning talks/ })).toBeVisible();
  await expectNoHorizontalScroll(page);
  await page.evaluate(() => Object.assign(window, { stillTheSamePage: true }));

  const moved = await request.patch(`/api/admin/sessions/${id}`, {
    headers,
    data: { title: 'Lunch talks, moved', startsAt: '2026-12-03T12:15:00+01:00' },
  });
  expect(moved.ok(), await moved.text()).toBe(true);
  await expect(hall.getByRole('link', { name: /Lunch talks, moved/ })).toContainText('12:15–12:45');

  // The talk's own page follows too.
  await page
    .getByRole('link', { name: /Lunch talks, moved/ })
    .first()
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Lunch talks, moved' })).toBeVisible();
  const cancelled = await request.patch(`/api/admin/sessions/${id}`, {
    headers,
    data: { cancelled: true },
  });
  expect(cancelled.ok()).toBe(true);
  await expect(page.getByText('Cancelled', { exact: true })).toBeVisible();
  expect(await page.evaluate(() => 'stillTheSamePage' in window)).toBe(true);
  await expectNoHorizontalScroll(page);
});
