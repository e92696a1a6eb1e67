import fs from 'node:fs/promises';
import type { Browser, Page } from '@playwright/test';
import {
  API_PATHS,
  sessionOverlayPath,
  sessionPath,
  sessionPresentPath,
  speakerSignInLink,
} from '../../src/shared/routes.ts';
import type { Poll } from '../../src/shared/schemas/poll.ts';
import { addRoom, addSession, setTimeZone } from '../support/programme.ts';
import { addSpeakerWithSecret, adminToken, joinAttendee } from '../support/speakers.ts';
import { ADMIN_PASSWORD, logInAsAdmin } from './admin-helpers.ts';
import { expectNoHorizontalScroll, uniqueName } from './qa-helpers.ts';
import { type RunningServer, expect, join, startServer, test as base } from './fixtures.ts';

type Server = Awaited<ReturnType<typeof startServer>>;

/** A server of its own: the spec restarts it, and seeds the programme as the admin. */
const test = base.extend<object, { pollServer: Server }>({
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

const PROJECTOR = { width: 1920, height: 1080 };
const PHONE = { width: 390, height: 844 };

/** A talk with one speaker, who has the secret of their sign-in link. */
async function seed(server: RunningServer) {
  const token = await adminToken(server.url, ADMIN_PASSWORD);
  await setTimeZone(server.url, token, 'Europe/Berlin');
  const { speaker, secret } = await addSpeakerWithSecret(server.url, uniqueName('Barbara'));
  const room = await addRoom(server.url, token, 'Hall Liskov');
  const session = await addSession(server.url, token, {
    title: 'Substitution in practice',
    roomId: room._id,
    startsAt: '2026-11-28T10:00:00+01:00',
    endsAt: '2026-11-28T10:45:00+01:00',
    speakerIds: [speaker._id],
  });
  return { token, speaker, secret, session };
}

/** A page in a browser profile of its own. */
async function newPage(browser: Browser, baseURL: string, viewport: typeof PHONE) {
  const context = await browser.newContext({ baseURL, viewport });
  return context.newPage();
}

/** The session's polls as an attendee reads them (no token). */
async function publicPolls(server: RunningServer, sessionId: string): Promise<Poll[]> {
  const response = await fetch(`${server.url}${API_PATHS.polls}?sessionId=${sessionId}`);
  return (await response.json()) as Poll[];
}

/** An attendee answers through the API (a phone not on screen). */
async function voteAs(server: RunningServer, username: string, pollId: string, optionId: string) {
  const token = await joinAttendee(server.url, username);
  const response = await fetch(`${server.url}${API_PATHS.pollVote(pollId)}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ optionIds: [optionId] }),
  });
  expect(response.status).toBe(200);
}

const pollCard = (page: Page, title: string) =>
  page.getByRole('article', { name: `Poll: ${title}` });
const stagePoll = (page: Page, title: string) =>
  page.getByRole('region', { name: `Poll: ${title}` });

test('a speaker prepares a poll, opens it on stage, and reveals what the room answered', async ({
  browser,
  baseURL,
  pollServer,
}) => {
  test.slow();
  const { speaker, secret, session } = await seed(pollServer);
  const title = 'Which would you refactor first?';

  // The speaker signs in with their link and prepares a draft before the talk.
  const dashboard = await newPage(browser, baseURL ?? '', PHONE);
  await dashboard.goto(speakerSignInLink(pollServer.url, speaker.username, secret));
  const polls = dashboard.getByRole('region', { name: `Polls · ${session.title}` });
  await expect(polls.getByText('No polls yet.', { exact: false })).toBeVisible();
  await polls.getByRole('button', { name: 'New poll' }).click();
  const editor = dashboard.getByRole('dialog', { name: 'New poll' });
  await editor.getByRole('button', { name: 'Create draft' }).click();
  await expect(editor.getByText('Title is required')).toBeVisible();
  await editor.getByRole('textbox', { name: 'Title' }).fill(title);
  await editor.getByRole('textbox', { name: 'Option 1' }).fill('The billing module');
  await editor.getByRole('textbox', { name: 'Option 2' }).fill('The test suite');
  await editor.getByRole('button', { name: 'Add option' }).click();
  await editor.getByRole('textbox', { name: 'Option 3' }).fill('The build');
  await editor.getByRole('button', { name: 'Move option 3 up' }).click();
  await expect(editor.getByRole('textbox', { name: 'Option 2' })).toHaveValue('The build');
  await editor.getByRole('button', { name: 'Create draft' }).click();
  await expect(editor).toBeHidden();
  const card = pollCard(dashboard, title);
  await expect(card.getByText('Draft')).toBeVisible();
  await expectNoHorizontalScroll(dashboard);
  // A draft is the speaker's alone.
  expect(await publicPolls(pollServer, session._id)).toEqual([]);

  // The projector at the back of the hall.
  const projector = await newPage(browser, baseURL ?? '', PROJECTOR);
  await projector.goto(sessionPresentPath(session._id));
  await expect(projector.getByRole('heading', { level: 1 })).toHaveText(session.title);
  await expect(stagePoll(projector, title)).toBeHidden();

  // On stage: the speaker opens it; the projector shows it at once, results hidden.
  await card.getByRole('button', { name: 'Open' }).click();
  await expect(card.getByText('Open', { exact: true })).toBeVisible();
  const onStage = stagePoll(projector, title);
  await expect(onStage.getByText('Live poll')).toBeVisible();
  await expect(onStage).toContainText('Results are hidden');

  // Two phones on the talk's page see it open and answer; its results stay hidden.
  const phones = await Promise.all(
    ['ann', 'bob'].map(async (username) => {
      const phone = await newPage(browser, baseURL ?? '', PHONE);
      await join(phone, username);
      await phone.goto(sessionPath(session._id));
      return phone;
    }),
  );
  const [open] = await publicPolls(pollServer, session._id);
  expect(open?.state).toBe('open');
  const build = open?.options.find((option) => option.text === 'The build');
  for (const phone of phones) {
    const asked = phone.getByRole('article', { name: title });
    await asked.getByRole('radio', { name: 'The build' }).click();
    await asked.getByRole('button', { name: 'Send answer' }).click();
    await expect(asked.getByText('Your answer: The build')).toBeVisible();
    await expect(asked).toContainText('Results are hidden');
  }
  await expect(card.getByText('2 answers', { exact: true }).first()).toBeVisible();
  await expect(onStage).toContainText('2');

  // The speaker reveals: the projector shows the results.
  await card.getByRole('button', { name: 'Show results' }).click();
  await expect(card.getByRole('button', { name: 'Hide results' })).toBeVisible();
  await expect(onStage).toContainText('The build');
  await expect(onStage).not.toContainText('Results are hidden');
  for (const phone of phones) {
    const shown = phone.getByRole('article', { name: title });
    await expect(shown).toContainText('The build');
    await expect(shown).not.toContainText('Results are hidden');
  }

  // The server restarts: the projector catches up by itself with what came meanwhile.
  await pollServer.restart(500);
  await voteAs(pollServer, 'cy', open?._id ?? '', build?.id ?? '');
  await expect(card.getByText('3 answers', { exact: true }).first()).toBeVisible({
    timeout: 20_000,
  });
  await expect(onStage).toContainText('3', { timeout: 20_000 });

  // Closed, revealed: it stays on the projector and in the overlay until another opens.
  await card.getByRole('button', { name: 'Close' }).click();
  await expect(card.getByRole('button', { name: 'Re-open' })).toBeVisible();
  await expect(onStage.getByText('Poll results')).toBeVisible();
  await projector.goto(sessionOverlayPath(session._id));
  await expect(stagePoll(projector, title)).toContainText('The build');

  // Reset asks first, then every answer is gone.
  await card.getByRole('button', { name: 'Reset' }).click();
  const confirm = dashboard.getByRole('dialog', { name: 'Reset this poll?' });
  await expect(confirm).toContainText('3 answers');
  await confirm.getByRole('button', { name: 'Reset' }).click();
  await expect(card.getByText('0 answers', { exact: true }).first()).toBeVisible();

  // Delete asks too; the projector lets it go.
  await card.getByRole('button', { name: 'Delete' }).click();
  await dashboard
    .getByRole('dialog', { name: 'Delete this poll?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(card).toBeHidden();
  await expect(stagePoll(projector, title)).toBeHidden();
});

test('the console runs a poll of the whole event and downloads every poll as CSV', async ({
  page,
}) => {
  await logInAsAdmin(page, ADMIN_PASSWORD, 'polls');
  const polls = page.getByRole('region', { name: 'Polls of the whole event' });
  await polls.getByRole('button', { name: 'New poll' }).click();
  const editor = page.getByRole('dialog', { name: 'New poll' });
  await editor.getByRole('textbox', { name: 'Title' }).fill('How was the first day?');
  await editor.getByRole('combobox', { name: 'Type' }).click();
  await page.getByRole('option', { name: 'Rating' }).click();
  await expect(editor.getByRole('textbox', { name: 'Option 1' })).toBeHidden();
  await editor.getByRole('textbox', { name: 'Highest rating' }).fill('10');
  await editor.getByRole('button', { name: 'Create draft' }).click();
  const card = pollCard(page, 'How was the first day?');
  await card.getByRole('button', { name: 'Open' }).click();
  await expect(card.getByText('Open', { exact: true })).toBeVisible();
  await card.getByRole('button', { name: 'Close' }).click();
  await expect(card.getByText('Closed', { exact: true })).toBeVisible();

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Polls CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('polls.csv');
  const csv = await fs.readFile(await file.path(), 'utf8');
  expect(csv.split('\n')[0]).toMatch(/^\uFEFF?id,createdAt,sessionId,title,type,state/);
  expect(csv).toContain('How was the first day?');
  expect(csv).toContain('closed');
});

test('a speaker’s own projector shows their talk’s poll during it, and an open poll of the event otherwise', async ({
  browser,
  baseURL,
  pollServer,
}) => {
  const { token, speaker, session } = await seed(pollServer);
  const asAdmin = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const openPoll = async (sessionId: string | null, title: string) => {
    const created = await fetch(`${pollServer.url}${API_PATHS.polls}`, {
      method: 'POST',
      headers: asAdmin,
      body: JSON.stringify({
        sessionId,
        title,
        type: 'single',
        options: [{ text: 'Yes' }, { text: 'No' }],
        resultsVisible: true,
      }),
    });
    expect(created.status).toBe(201);
    const { _id } = (await created.json()) as Poll;
    const opened = await fetch(`${pollServer.url}${API_PATHS.poll(_id)}`, {
      method: 'PATCH',
      headers: asAdmin,
      body: JSON.stringify({ state: 'open' }),
    });
    expect(opened.status).toBe(200);
  };
  await openPoll(null, 'First time at the conference?');
  await openPoll(session._id, 'Do you use substitution daily?');

  const during = await newPage(browser, baseURL ?? '', PROJECTOR);
  await during.clock.install({ time: new Date('2026-11-28T10:15:00+01:00') });
  await during.goto(`/speakers/${speaker.username}/present`);
  await expect(stagePoll(during, 'Do you use substitution daily?')).toBeVisible();
  await expect(stagePoll(during, 'First time at the conference?')).toBeHidden();

  const after = await newPage(browser, baseURL ?? '', PROJECTOR);
  await after.clock.install({ time: new Date('2026-11-28T12:00:00+01:00') });
  await after.goto(`/speakers/${speaker.username}/present`);
  await expect(stagePoll(after, 'First time at the conference?')).toBeVisible();
  await expect(stagePoll(after, 'Do you use substitution daily?')).toBeHidden();
  await after.screenshot({ path: test.info().outputPath('speaker-presenter-event-poll.png') });
});
