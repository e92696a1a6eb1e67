import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, BrowserContextOptions, Page } from '@playwright/test';
import { COLOR_SCHEME_STORAGE_KEY } from '../../src/shared/constants.ts';
import { ADMIN_PASSWORD, adminCard, adminSearchBox, logInAsAdmin } from './admin-helpers.ts';
import { type RunningServer, expect, join, startServer, test as base } from './fixtures.ts';
import { chooseFiles, png } from './memory-helpers.ts';
import {
  askViaApi,
  chooseSpeakerPicture,
  createSpeaker,
  fillSpeakerForm,
  uniqueName,
} from './qa-helpers.ts';
import { seedMemoriesInto } from './seed.ts';
import {
  API_PATHS,
  sessionPath,
  sessionPresentPath,
  speakerSignInLink,
} from '../../src/shared/routes.ts';
import { addRoom, addSession } from '../support/programme.ts';
import { addSpeakerWithSecret, adminToken, joinAttendee } from '../support/speakers.ts';

/**
 * axe (its default rule set: WCAG 2.x A and AA, and the best practices) on every screen and
 * every modal, in both colour modes. Each check names the state it looked at; a failure lists
 * every violation with its rule, the elements and what to fix. See
 * docs/decisions/086-accessibility-checks.md.
 */

type ColorMode = 'light' | 'dark';

/** The colour mode saved by an earlier visit: the stored value the app reads before painting. */
const savedColorMode = (
  origin: string,
  mode: ColorMode,
): BrowserContextOptions['storageState'] => ({
  cookies: [],
  origins: [{ origin, localStorage: [{ name: COLOR_SCHEME_STORAGE_KEY, value: mode }] }],
});

const test = base.extend<{ colorMode: ColorMode }, { server: RunningServer }>({
  colorMode: ['light', { option: true }],
  // One server per worker, with a known admin password so the admin screen can be reached too.
  server: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startServer({ ADMIN_PASSWORD });
      await use(server);
      await server.stop();
    },
    { scope: 'worker' },
  ],
  storageState: async ({ server, colorMode }, use) => {
    await use(savedColorMode(server.url, colorMode));
  },
});

// Mantine honours reduced motion: modals and toasts appear at once, so no check lands in the
// middle of a fade (whose half-transparent text axe would rightly report as low contrast).
test.use({ reducedMotion: 'reduce' });

/** One line per element that breaks a rule: rule, element, what is wrong and the fix. */
function describeViolations(violations: Awaited<ReturnType<AxeBuilder['analyze']>>['violations']) {
  return violations.flatMap((violation) =>
    violation.nodes.map(
      (node) =>
        `[${violation.id}] ${violation.help} — ${node.target.join(' ')} — ` +
        `${(node.failureSummary ?? '').replace(/\s+/g, ' ').trim()} (${violation.helpUrl})`,
    ),
  );
}

/**
 * Runs axe on the page as it is now and records any violation without stopping, so one run
 * reports every state a test walks through.
 */
async function expectAccessible(page: Page, state: string, mode: ColorMode): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', mode);
  // The app has no frames, so axe runs in the page itself instead of opening a second, blank
  // page on every check to merge the results of each frame (the slow part of a check).
  const { violations } = await new AxeBuilder({ page }).setLegacyMode().analyze();
  expect.soft(describeViolations(violations), `axe: ${state} (${mode} mode)`).toEqual([]);
}

/** A second browser profile with the same saved colour mode (for a server of its own). */
const newContextFor = (browser: Browser, url: string, mode: ColorMode) =>
  browser.newContext({
    baseURL: url,
    reducedMotion: 'reduce',
    storageState: savedColorMode(url, mode),
  });

/** Keeps a toast on screen while it is checked: hovering pauses its auto-close. */
async function holdToast(page: Page, text: string | RegExp) {
  const toast = page.getByRole('alert').filter({ hasText: text });
  await expect(toast).toBeVisible();
  await toast.hover();
}

for (const mode of ['light', 'dark'] as const) {
  test.describe(`accessibility in ${mode} mode`, () => {
    test.use({ colorMode: mode });
    // Each test scans several screens with axe, a second or more each on a busy machine.
    test.describe.configure({ timeout: 90_000 });

    test('the join page, with its error', async ({ page }) => {
      await page.goto('/');
      await expect(page.getByRole('button', { name: 'Join Now' })).toBeVisible();
      await expectAccessible(page, 'join', mode);
      await page.getByRole('button', { name: 'Join Now' }).click();
      await expect(page.getByText('Enter your username!!')).toBeVisible();
      await expectAccessible(page, 'join with "Enter your username!!"', mode);
    });

    test('home with a gallery, and the memory form and download modals', async ({
      page,
      server,
    }) => {
      const tag = uniqueName('a11y');
      await seedMemoriesInto(server, [
        { username: 'ada', text: `Opening keynote ${tag}`, color: '#e64980' },
        { username: 'grace', text: `Hallway track ${tag}`, color: '#12b886' },
        { username: 'linus', text: `Demo clip ${tag}`, kind: 'video' },
      ]);
      await join(page, 'reader');
      await expect(
        page.getByRole('button', { name: 'Open memory by grace' }).first(),
      ).toBeVisible();
      await expectAccessible(page, '/home with memories', mode);

      await page.getByRole('button', { name: 'Open memory by ada' }).first().click();
      const download = page.getByRole('dialog', { name: 'Download Memory' });
      await expect(download.getByRole('img', { name: /Photo by ada/ })).toBeVisible();
      await expectAccessible(page, 'Download Memory', mode);
      await page.keyboard.press('Escape');
      await expect(download).toBeHidden();

      await page.getByRole('button', { name: 'SHARE A MEMORY' }).click();
      const form = page.getByRole('dialog', { name: 'Share a Memory' });
      await form.getByRole('button', { name: 'Post Your Memory!' }).click();
      await expect(form.getByText('Caption is required')).toBeVisible();
      await expectAccessible(page, 'memory form with its errors', mode);
      await chooseFiles(page, form, [
        { name: 'stage.png', mimeType: 'image/png', buffer: await png('#e03131') },
        { name: 'crowd.png', mimeType: 'image/png', buffer: await png('#1971c2') },
      ]);
      await expect(form.getByRole('img', { name: 'Preview of crowd.png' })).toBeVisible();
      await form.getByLabel('Add a Caption').fill(`From the front row ${tag}`);
      await expectAccessible(page, 'memory form with previews', mode);
      await form.getByRole('button', { name: 'Post Your Memory!' }).click();
      const shared = page.getByRole('dialog', { name: 'Memory Shared' });
      await expect(shared).toBeVisible();
      await holdToast(page, '2 memories shared successfully!');
      await expectAccessible(page, 'Memory Shared with its toast', mode);
    });

    test('the share dialog, /memories, /memoryForm, the memory pages and an unknown page', async ({
      page,
      server,
    }) => {
      const tag = uniqueName('a11y');
      const [memory] = await seedMemoriesInto(server, [
        { username: 'grace', text: `Hallway track ${tag}`, color: '#12b886' },
      ]);
      await join(page, 'sharer');

      await page.getByRole('button', { name: 'Share your moments' }).click();
      const moments = page.getByRole('dialog', { name: 'Share Your Confab Moments!' });
      await chooseFiles(page, moments, [
        { name: 'talk.png', mimeType: 'image/png', buffer: await png('#7048e8') },
      ]);
      await expect(moments.getByRole('img', { name: 'Preview of talk.png' })).toBeVisible();
      await expectAccessible(page, 'Share Your Confab Moments! with a preview', mode);
      await moments.getByLabel('Caption').fill(`Best talk ${tag}`);
      await moments.getByRole('button', { name: 'Share Moments' }).click();
      await expect(moments.getByRole('link', { name: 'Post on X' })).toBeVisible();
      await expectAccessible(page, 'Share Your Confab Moments! once posted', mode);
      await moments.getByRole('button', { name: 'Done' }).click();

      await page.goto('/memories');
      await expect(page.getByRole('heading', { name: 'Memories', level: 1 })).toBeVisible();
      await expect(
        page.getByRole('button', { name: 'Open memory by grace' }).first(),
      ).toBeVisible();
      await expectAccessible(page, '/memories', mode);

      await page.goto('/memoryForm');
      await expect(page.getByRole('dialog', { name: 'Share a Memory' })).toBeVisible();
      await expectAccessible(page, '/memoryForm', mode);

      await page.goto(`/memory?id=${memory?._id ?? ''}`);
      await expect(page.getByRole('link', { name: 'Download' })).toBeVisible();
      await expectAccessible(page, '/memory', mode);

      await page.goto('/memory?id=0190f7d2-0000-7000-8000-000000000000');
      await expect(page.getByRole('heading', { name: 'Memory not found' })).toBeVisible();
      await expectAccessible(page, '/memory of an unknown id', mode);

      await page.goto('/no-such-page');
      await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
      await expectAccessible(page, 'an unknown page', mode);
    });

    test('an empty app: the empty gallery and the empty Q&A room', async ({ browser }) => {
      const empty = await startServer();
      const context = await newContextFor(browser, empty.url, mode);
      try {
        const page = await context.newPage();
        await join(page, 'first');
        await expect(page.getByText('No media available')).toBeVisible();
        await expectAccessible(page, '/home with an empty gallery', mode);
        await page.goto('/speakerscard');
        await expect(page.getByText('No speakers available.')).toBeVisible();
        await expectAccessible(page, '/speakerscard without speakers', mode);
      } finally {
        await context.close();
        await empty.stop();
      }
    });

    test('asking a question, its modals, and /questions', async ({ page, request }) => {
      const speaker = await createSpeaker(request, uniqueName('Barbara'));
      const others = `What comes after the keynote, ${speaker.name}?`;
      const mine = `Where are the slides, ${speaker.name}?`;
      await askViaApi(request, speaker, others, 'someone-else');
      await askViaApi(request, speaker, mine, 'asker');
      await join(page, 'asker');

      await page.getByRole('button', { name: 'ASK A QUESTION' }).click();
      const dialog = page.getByRole('dialog', { name: 'Ask a Question' });
      await expect(dialog.getByRole('option', { name: speaker.name })).toBeAttached();
      await expectAccessible(page, 'Ask a Question', mode);
      await dialog.getByRole('button', { name: 'Submit Question' }).click();
      await expect(dialog.getByText('Question is required')).toBeVisible();
      await expectAccessible(page, 'Ask a Question with its errors', mode);

      await dialog.getByPlaceholder('Type your question here…').fill('Can we see the demo again?');
      await dialog.getByLabel('Speaker').selectOption({ label: speaker.name });
      await dialog.getByRole('button', { name: 'Submit Question' }).click();
      await expect(page.getByRole('dialog', { name: 'Thank you!' })).toBeVisible();
      await holdToast(page, 'Question submitted successfully!');
      await expectAccessible(page, 'Thank you! with its toast', mode);

      await page.goto('/questions');
      const feed = page.getByRole('feed', { name: 'Questions' });
      await expect(feed.getByText(others)).toBeVisible();
      await expectAccessible(page, '/questions, All', mode);
      await page.getByText('Mine', { exact: true }).click();
      await expect(feed.getByText(others)).toBeHidden();
      await expect(feed.getByText(mine)).toBeVisible();
      await expectAccessible(page, '/questions, Mine', mode);
    });

    test('the Q&A room and the speaker dashboards', async ({ page, request }) => {
      const busy = await createSpeaker(request, uniqueName('Hopper'), 'COBOL');
      const quiet = await createSpeaker(request, uniqueName('Quiet'), 'Rust');
      for (const asker of ['kim', 'lee', 'max', 'noa', 'oli', 'pat']) {
        await askViaApi(request, busy, `A question from ${asker}`, asker);
      }
      await join(page, 'pat');

      await page.goto('/speakerscard');
      await expect(page.getByText('Select a speaker to view the dashboard')).toBeVisible();
      await expect(page.getByRole('link', { name: new RegExp(busy.name) })).toBeVisible();
      await expectAccessible(page, '/speakerscard, no speaker selected', mode);
      await page.getByRole('link', { name: new RegExp(busy.name) }).click();
      const panel = page.getByRole('region', { name: `Questions for ${busy.name}` });
      await expect(panel.getByRole('article')).toHaveCount(6);
      await expectAccessible(page, '/speakerscard with a speaker selected', mode);

      await page.goto(`/speakers/${busy.username}/dashboard`);
      await expect(page.getByRole('feed', { name: 'Questions for you' })).toBeVisible();
      await expectAccessible(page, 'a dashboard with questions', mode);
      await page.goto(`/speakers/${quiet.username}/dashboard`);
      await expect(page.getByText('No questions available.')).toBeVisible();
      await expectAccessible(page, 'a dashboard without questions', mode);
      await page.goto('/speakers/nobody-at-all/dashboard');
      await expect(page.getByText('Speaker not found')).toBeVisible();
      await expectAccessible(page, 'a dashboard of an unknown speaker', mode);
      await page.goto(`/speakers/${busy.username}/present`);
      await expect(page.getByRole('list', { name: 'Top questions' })).toBeVisible();
      await expectAccessible(page, 'the presenter view', mode);

      await page.setViewportSize({ width: 360, height: 740 });
      await page.goto('/speakerscard');
      await page.getByRole('link', { name: new RegExp(busy.name) }).click();
      await expect(panel.getByRole('article')).toHaveCount(6);
      await expect(page.getByRole('button', { name: 'Back', exact: true })).toBeVisible();
      await expectAccessible(page, '/speakerscard on a phone with the chat open', mode);
    });

    test('answered questions in an organiser’s colour: /questions, the Q&A room and the dashboard', async ({
      browser,
    }) => {
      test.slow();
      // A server of its own: the colour changed here must not reach the other checks.
      const own = await startServer({ ADMIN_PASSWORD });
      const context = await newContextFor(browser, own.url, mode);
      try {
        const request = context.request;
        const login = await request.post('/api/admin/login', {
          data: { username: 'admin', password: ADMIN_PASSWORD },
        });
        const { token } = (await login.json()) as { token: string };
        const admin = { authorization: `Bearer ${token}` };
        // An orange whose shades failed before: its link colour was 3.2:1 on an answered card.
        const saved = await request.put('/api/admin/settings', {
          headers: admin,
          data: { primaryColor: '#e8590c' },
        });
        expect(saved.status()).toBe(200);
        const speaker = await createSpeaker(request, uniqueName('Lovelace'));
        for (const [asker, text, answered] of [
          ['ada', 'Which engine comes next?', true],
          ['bob', 'Will the notes be shared?', false],
          ['reader', 'What did the first program compute?', true],
        ] as const) {
          const asked = await request.post('/questions', {
            data: {
              speakerId: speaker._id,
              speakerName: speaker.name,
              question: text,
              askerUsername: asker,
            },
          });
          expect(asked.status()).toBe(201);
          const question = (await asked.json()) as { _id: string };
          if (answered) {
            const marked = await request.patch(`/api/questions/${question._id}`, {
              headers: admin,
              data: { answered: true },
            });
            expect(marked.status()).toBe(200);
          }
        }
        const page = await context.newPage();
        await join(page, 'reader');

        await page.goto('/questions');
        const feed = page.getByRole('feed', { name: 'Questions' });
        await expect(feed.getByText('Which engine comes next?')).toBeVisible();
        await expect(feed.getByText('Answered').first()).toBeVisible();
        await expectAccessible(page, '/questions with answered ones in #e8590c', mode);

        await page.goto(`/speakerscard?speaker=${speaker._id}`);
        const panel = page.getByRole('region', { name: `Questions for ${speaker.name}` });
        await expect(panel.getByRole('article')).toHaveCount(3);
        await expectAccessible(page, 'the Q&A room with answered ones in #e8590c', mode);

        await page.goto(`/speakers/${speaker.username}/dashboard`);
        await expect(page.getByRole('feed', { name: 'Questions for you' })).toBeVisible();
        const answeredSection = page.getByRole('region', { name: 'Answered' });
        await expect(answeredSection.getByText('Which engine comes next?')).toBeVisible();
        await expectAccessible(page, 'the dashboard with answered ones in #e8590c', mode);
        await page.screenshot({ path: `/tmp/confab-answered-${mode}.png`, fullPage: true });
      } finally {
        await context.close();
        await own.stop();
      }
    });

    test('speaker sign-up and login', async ({ page }) => {
      await page.goto('/Speakerform');
      await expect(page.getByRole('button', { name: 'Add Speaker Bio' })).toBeVisible();
      await expectAccessible(page, '/Speakerform', mode);
      await page.getByRole('button', { name: 'Add Speaker Bio' }).click();
      const form = page.getByRole('dialog', { name: 'Join as Speaker' });
      await form.getByRole('button', { name: 'Upload Bio' }).click();
      await expect(form.getByText('Picture is required')).toBeVisible();
      await expectAccessible(page, 'Join as Speaker with its errors', mode);

      await fillSpeakerForm(form, {
        name: uniqueName('Hedy'),
        stack: 'Radio',
        bio: 'Frequency hopping.',
      });
      await chooseSpeakerPicture(page, form);
      await expect(form.getByRole('img', { name: 'Chosen picture' })).toBeVisible();
      await expectAccessible(page, 'Join as Speaker filled in', mode);
      await form.getByRole('button', { name: 'Upload Bio' }).click();
      const uploaded = page.getByRole('dialog', { name: 'Uploaded Succesfully' });
      await expect(uploaded.getByLabel('Your username')).toBeVisible();
      await expectAccessible(page, 'Uploaded Succesfully', mode);

      await page.goto('/SpeakerLogin');
      await expect(page.getByRole('heading', { name: 'Speaker Login' })).toBeVisible();
      await expectAccessible(page, '/SpeakerLogin', mode);
      await page.getByLabel('Username').fill('nobody-by-this-name');
      await page.getByRole('button', { name: 'Login' }).click();
      await expect(page.getByRole('alert')).toHaveText('Speaker not found');
      await expectAccessible(page, '/SpeakerLogin with its error', mode);
    });

    test('the admin screen: login, moderation and the delete confirmation', async ({
      page,
      server,
    }) => {
      const tag = uniqueName('mod').replace(' ', '-');
      await seedMemoriesInto(server, [
        { username: `ada-${tag}`, text: `Keynote selfie ${tag}`, color: '#e64980' },
        { username: `grace-${tag}`, text: `Compilers and coffee ${tag}`, color: '#12b886' },
        { username: `linus-${tag}`, text: `Demo clip ${tag}`, kind: 'video' },
      ]);
      await page.goto('/borderlessadmin');
      await expect(page.getByRole('heading', { name: 'Admin Login' })).toBeVisible();
      await expectAccessible(page, 'Admin Login', mode);
      await logInAsAdmin(page, 'not the password');
      await expect(page.getByRole('alert')).toHaveText('Invalid username or password');
      await expectAccessible(page, 'Admin Login with its error', mode);

      await logInAsAdmin(page);
      await adminSearchBox(page).fill(tag);
      await expect(page.getByRole('article')).toHaveCount(3);
      await expect(adminCard(page, `linus-${tag}`).locator('video')).toBeVisible();
      await expectAccessible(page, 'moderation with a search', mode);

      await adminCard(page, `grace-${tag}`).getByRole('button', { name: 'Delete' }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete this memory?' });
      await expect(confirm).toContainText(`grace-${tag}`);
      await expectAccessible(page, 'the delete confirmation', mode);
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await holdToast(page, `Deleted the memory by grace-${tag}.`);
      await expectAccessible(page, 'moderation with its toast', mode);

      await expect(page.getByRole('list', { name: 'Recent deletions' })).toBeVisible();

      await page.getByRole('tab', { name: 'Overview' }).click();
      await expect(page.getByText('Questions and votes per speaker')).toBeVisible();
      await expect(page.locator('.recharts-surface').first()).toBeVisible();
      await expectAccessible(page, 'the overview', mode);

      await page.getByRole('tab', { name: 'Questions' }).click();
      await expect(page.getByRole('searchbox', { name: 'Search questions' })).toBeVisible();
      await expect(page.getByRole('progressbar')).toHaveCount(0);
      await expectAccessible(page, 'the questions under moderation', mode);
      await page.getByRole('tab', { name: 'Speakers' }).click();
      await expect(page.getByRole('progressbar')).toHaveCount(0);
      await expectAccessible(page, 'the speakers under moderation', mode);
      await page.getByRole('tab', { name: 'Settings' }).click();
      await expect(page.getByRole('switch', { name: 'Moderate questions' })).toBeVisible();
      await expectAccessible(page, 'the settings', mode);
    });

    test('the polls: the speaker’s panel and its editor, a projector, an attendee’s card, the console’s tab', async ({
      page,
      server,
    }) => {
      const admin = await adminToken(server.url, ADMIN_PASSWORD);
      const { speaker, secret } = await addSpeakerWithSecret(server.url, uniqueName('Barbara'));
      const room = await addRoom(server.url, admin, uniqueName('Hall'));
      const session = await addSession(server.url, admin, {
        title: uniqueName('Polls in practice'),
        roomId: room._id,
        startsAt: '2026-11-28T10:00:00+01:00',
        endsAt: '2026-11-28T10:45:00+01:00',
        speakerIds: [speaker._id],
      });
      const send = async (method: string, path: string, token: string, body: unknown) => {
        const response = await fetch(`${server.url}${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        expect(response.ok).toBe(true);
        return (await response.json()) as { _id: string };
      };
      const poll = await send('POST', API_PATHS.polls, admin, {
        sessionId: session._id,
        title: 'Which would you refactor first?',
        type: 'single',
        resultsVisible: true,
        options: [
          { id: 'a', text: 'The billing module' },
          { id: 'b', text: 'The build' },
        ],
      });
      await send('PATCH', API_PATHS.poll(poll._id), admin, { state: 'open' });
      const voter = await joinAttendee(server.url, uniqueName('ann').replace(' ', '-'));
      await send('PUT', API_PATHS.pollVote(poll._id), voter, { optionIds: ['b'] });
      await send('POST', API_PATHS.polls, admin, {
        sessionId: session._id,
        title: 'One word for good design?',
        type: 'wordcloud',
      });

      await page.goto(speakerSignInLink(server.url, speaker.username, secret));
      const panel = page.getByRole('region', { name: `Polls · ${session.title}` });
      await expect(panel.getByRole('article')).toHaveCount(2);
      await expectAccessible(page, 'the speaker’s polls', mode);
      await panel.getByRole('button', { name: 'New poll' }).click();
      await expect(page.getByRole('dialog', { name: 'New poll' })).toBeVisible();
      await expectAccessible(page, 'the poll editor', mode);
      await page.getByRole('button', { name: 'Cancel' }).click();

      await page.goto(sessionPresentPath(session._id));
      await expect(
        page.getByRole('region', { name: 'Poll: Which would you refactor first?' }),
      ).toContainText('The build');
      await expectAccessible(page, 'a projector with a poll', mode);

      // An attendee's card of the open poll, its "Open" badge included, on the talk's page.
      await join(page, uniqueName('pat').replace(' ', '-'));
      await page.goto(sessionPath(session._id));
      await expect(page.getByText('Which would you refactor first?')).toBeVisible();
      await expectAccessible(page, 'an attendee’s open poll', mode);

      await logInAsAdmin(page, ADMIN_PASSWORD, 'polls');
      await expect(page.getByRole('region', { name: 'Polls of the whole event' })).toBeVisible();
      await expect(page.getByRole('progressbar')).toHaveCount(0);
      await expectAccessible(page, 'the console’s polls', mode);
    });

    test('the memories awaiting approval and the photo wall', async ({ page, server }) => {
      await seedMemoriesInto(server, [
        { username: `wall-${mode}`, text: `On the wall ${mode}`, color: '#f76707' },
      ]);
      await logInAsAdmin(page);
      await page.getByRole('tab', { name: /Awaiting approval/ }).click();
      await expect(page.getByText('No memories are awaiting approval.')).toBeVisible();
      await expectAccessible(page, 'the memories awaiting approval', mode);

      await page.goto('/wall');
      await expect(page.getByRole('main', { name: /^Photo wall of / })).toBeVisible();
      await expect(page.getByText(/^@/).first()).toBeVisible();
      await expectAccessible(page, 'the photo wall', mode);
    });
  });
}
