import type { APIRequestContext, Browser, Locator, Page } from '@playwright/test';
import { type RunningServer, expect, join, startServer, test as base } from './fixtures.ts';
import { ADMIN_PASSWORD, logInAsAdmin } from './admin-helpers.ts';
import { askViaApi, portraitPng, uniqueName } from './qa-helpers.ts';

/** The live room's specs run against their own server, with a known admin password. */
const test = base.extend<object, { liveServer: RunningServer }>({
  liveServer: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startServer({ ADMIN_PASSWORD, QUESTIONS_PER_MINUTE: '600' });
      await use(server);
      await server.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ liveServer }, use) => {
    await use(liveServer.url);
  },
});

const REALTIME = /\/api\/questions\/realtime|\/dashboard$/;

interface Signed {
  _id: string;
  name: string;
  username: string;
  secret: string;
}

/** Signs a speaker up through the API: the speaker and the secret shown once. */
async function signUp(request: APIRequestContext, first: string): Promise<Signed> {
  const response = await request.post('/api/speakersadd', {
    multipart: {
      name: uniqueName(first),
      stack: 'Distributed systems',
      bio: 'Talks about consensus.',
      picture: { name: 'me.png', mimeType: 'image/png', buffer: await portraitPng() },
    },
  });
  expect(response.status()).toBe(201);
  const body = (await response.json()) as {
    speaker: Omit<Signed, 'secret'>;
    secret: string;
  };
  return { ...body.speaker, secret: body.secret };
}

async function adminToken(request: APIRequestContext): Promise<string> {
  const response = await request.post('/api/admin/login', {
    data: { username: 'admin', password: ADMIN_PASSWORD },
  });
  return ((await response.json()) as { token: string }).token;
}

/**
 * Resolves once the page's socket has joined a room of this kind (the server acknowledged the
 * `watch`): from then on events reach it, so a test may block polling and still expect changes.
 * Attach before the page loads.
 */
function whenWatching(page: Page, room: 'speaker' | 'questions' | 'moderation'): Promise<void> {
  return new Promise((resolve) => {
    page.on('websocket', (socket) => {
      const asked = new Set<string>();
      socket.on('framesent', ({ payload }) => {
        const sent = /^42(\d+)\["watch",\{"room":"(\w+)"/.exec(String(payload));
        if (sent?.[1] && sent[2] === room) asked.add(sent[1]);
      });
      socket.on('framereceived', ({ payload }) => {
        const ack = /^43(\d+)\[true\]/.exec(String(payload));
        if (ack?.[1] && asked.has(ack[1])) resolve();
      });
    });
  });
}

/** An attendee in a browser profile of their own, joined, in the room on that speaker. */
async function attendeeInRoom(
  browser: Browser,
  baseURL: string | undefined,
  username: string,
  speaker: Signed,
  viewport?: { width: number; height: number },
): Promise<Page> {
  const context = await browser.newContext({ baseURL, ...(viewport ? { viewport } : {}) });
  const page = await context.newPage();
  await join(page, username);
  const watching = whenWatching(page, 'speaker');
  await page.goto(`/speakerscard?speaker=${speaker._id}`);
  await watching;
  return page;
}

const question = (page: Page | Locator, text: string) =>
  page.getByRole('article').filter({ hasText: text });

test.describe('the live room', () => {
  test('two attendees vote and both see the count change live', async ({
    browser,
    baseURL,
    request,
  }) => {
    test.slow();
    const speaker = await signUp(request, 'Leslie');
    await askViaApi(request, speaker, 'What is a Byzantine fault?', 'asker');
    await askViaApi(request, speaker, 'Why Paxos?', 'asker2');
    const ann = await attendeeInRoom(browser, baseURL, 'ann', speaker);
    const bob = await attendeeInRoom(browser, baseURL, 'bob', speaker);
    for (const page of [ann, bob]) {
      await expect(question(page, 'Byzantine')).toBeVisible();
      // From here on only the socket brings changes.
      await page.route(REALTIME, (route) => route.abort());
    }
    await question(ann, 'Byzantine')
      .getByRole('button', { name: /Upvote/ })
      .click();
    for (const page of [ann, bob]) {
      await expect(
        question(page, 'Byzantine').getByRole('button', { name: 'Upvote: 1 vote' }),
      ).toBeVisible();
    }
    await expect(
      question(ann, 'Byzantine').getByRole('button', { name: 'Upvote: 1 vote' }),
    ).toHaveAttribute('aria-pressed', 'true');
    await question(bob, 'Byzantine')
      .getByRole('button', { name: /Upvote/ })
      .click();
    for (const page of [ann, bob]) {
      await expect(
        question(page, 'Byzantine').getByRole('button', { name: 'Upvote: 2 votes' }),
      ).toBeVisible();
    }
    // Top puts the most wanted question first.
    await ann.getByText('Top', { exact: true }).click();
    await expect(ann.getByRole('article').first()).toContainText('Byzantine');
    // Taking the vote back.
    await question(ann, 'Byzantine')
      .getByRole('button', { name: /Upvote/ })
      .click();
    await expect(
      question(bob, 'Byzantine').getByRole('button', { name: 'Upvote: 1 vote' }),
    ).toBeVisible();
    await ann.context().close();
    await bob.context().close();
  });

  test('the speaker marks answered and pins from the dashboard; the attendee sees it live', async ({
    browser,
    baseURL,
    request,
  }) => {
    test.slow();
    const speaker = await signUp(request, 'Barbara');
    await askViaApi(request, speaker, 'What is substitutability?', 'q1');
    await askViaApi(request, speaker, 'Which came first, CLU or Argus?', 'q2');
    const attendee = await attendeeInRoom(browser, baseURL, 'carol', speaker);
    await expect(question(attendee, 'substitutability')).toBeVisible();
    await attendee.route(REALTIME, (route) => route.abort());

    const speakerContext = await browser.newContext({ baseURL });
    const dashboard = await speakerContext.newPage();
    // The sign-in link shown once at sign-up.
    await dashboard.goto(
      `/SpeakerLogin#${new URLSearchParams({ username: speaker.username, secret: speaker.secret }).toString()}`,
    );
    await expect(dashboard).toHaveURL(new RegExp(`/speakers/${speaker.username}/dashboard$`));
    await question(dashboard, 'substitutability')
      .getByRole('button', { name: 'Mark answered' })
      .click();
    await question(dashboard, 'CLU or Argus').getByRole('button', { name: 'Pin' }).click();

    await expect(attendee.getByRole('heading', { name: 'Answered' })).toBeVisible();
    await expect(question(attendee, 'substitutability')).toContainText('Answered');
    await expect(question(attendee, 'CLU or Argus')).toContainText('Pinned');
    // The pinned question is on top for everyone.
    await expect(attendee.getByRole('article').first()).toContainText('CLU or Argus');
    // Without the secret the dashboard is read-only.
    const readOnly = await browser.newContext({ baseURL });
    const plain = await readOnly.newPage();
    await plain.goto(`/speakers/${speaker.username}/dashboard`);
    await expect(question(plain, 'CLU or Argus')).toBeVisible();
    await expect(plain.getByRole('button', { name: 'Mark answered' })).toHaveCount(0);
    await readOnly.close();
    await speakerContext.close();
    await attendee.context().close();
  });

  test('the speaker undoes a Hide from its toast, and unhides a question from the hidden ones', async ({
    browser,
    baseURL,
    request,
  }) => {
    test.slow();
    const speaker = await signUp(request, 'Hedy');
    await askViaApi(request, speaker, 'Frequency hopping, how?', 'h1');
    await askViaApi(request, speaker, 'Which film came first?', 'h2');
    const context = await browser.newContext({ baseURL });
    const dashboard = await context.newPage();
    await dashboard.goto(
      `/SpeakerLogin#${new URLSearchParams({ username: speaker.username, secret: speaker.secret }).toString()}`,
    );
    await expect(dashboard).toHaveURL(new RegExp(`/speakers/${speaker.username}/dashboard$`));
    const feed = dashboard.getByRole('feed', { name: 'Questions for you' });

    // Hide, then Undo in the toast: the question is back at once, published.
    await question(feed, 'Frequency hopping').getByRole('button', { name: 'Hide' }).click();
    // The server's answer takes it off; a busy machine may take more than the default 5 s.
    await expect(question(feed, 'Frequency hopping')).toHaveCount(0, { timeout: 15_000 });
    const toast = dashboard.getByRole('alert').filter({ hasText: 'Question hidden' });
    await toast.getByRole('button', { name: 'Undo' }).click();
    await expect(question(feed, 'Frequency hopping')).toBeVisible();
    await expect
      .poll(async () => {
        const response = await request.get(`/api/questions/realtime?speakerId=${speaker._id}`);
        return ((await response.json()) as { question: string }[]).map((q) => q.question);
      })
      .toContain('Frequency hopping, how?');

    // Hidden, the toast left alone: the speaker finds it among their hidden questions.
    await question(feed, 'Which film').getByRole('button', { name: 'Hide' }).click();
    await expect(question(feed, 'Which film')).toHaveCount(0, { timeout: 15_000 });
    await dashboard.getByRole('button', { name: 'Hidden questions (1)' }).click();
    const hidden = dashboard.getByRole('region', { name: 'Hidden questions' });
    await expect(question(hidden, 'Which film')).toBeVisible();
    await question(hidden, 'Which film').getByRole('button', { name: 'Unhide' }).click();
    await expect(question(feed, 'Which film')).toBeVisible();
    await expect(question(hidden, 'Which film')).toHaveCount(0);
    // Still there after a reload: the server has it published again.
    await dashboard.reload();
    await expect(question(feed, 'Which film')).toBeVisible();
    await expect(dashboard.getByRole('button', { name: /Hidden questions/ })).toHaveCount(0);
    await context.close();
  });

  test('the presenter view updates live and its QR code leads to the ask form', async ({
    browser,
    baseURL,
    request,
  }) => {
    test.slow();
    const speaker = await signUp(request, 'Radia');
    const context = await browser.newContext({ baseURL, viewport: { width: 1920, height: 1080 } });
    const present = await context.newPage();
    const watching = whenWatching(present, 'speaker');
    await present.goto(`/speakers/${speaker.username}/present`);
    await watching;
    await expect(present.getByRole('heading', { name: `Q&A with ${speaker.name}` })).toBeVisible();
    await present.route(REALTIME, (route) => route.abort());
    await askViaApi(request, speaker, 'How does spanning tree converge?', 'net');
    await askViaApi(request, speaker, 'Is TRILL still used?', 'net2');
    const top = present.getByRole('list', { name: 'Top questions' });
    await expect(top).toContainText('spanning tree');
    await expect(top).toContainText('TRILL');

    const token = await adminToken(request);
    const listed = (await (
      await request.get(`/api/questions/realtime?speakerId=${speaker._id}`)
    ).json()) as { _id: string; question: string }[];
    const trill = listed.find((q) => q.question.includes('TRILL'));
    expect(trill).toBeDefined();
    const pinned = await request.patch(`/api/questions/${trill?._id ?? ''}`, {
      headers: { authorization: `Bearer ${token}` },
      data: { pinned: true },
    });
    expect(pinned.status()).toBe(200);
    await expect(present.getByRole('article', { name: 'Pinned question' })).toContainText('TRILL');
    await expect(top).not.toContainText('TRILL');

    const qr = present.getByRole('img', { name: /^QR code: / });
    await expect(qr).toBeVisible();
    const label = (await qr.getAttribute('aria-label')) ?? '';
    const link = label.replace(/^QR code: /, '');
    expect(link).toBe(`${baseURL ?? ''}/?ask=${speaker.username}`);
    await present.screenshot({ path: '/tmp/confab-presenter-1920.png' });
    await present.emulateMedia({ colorScheme: 'dark' });
    await present.getByRole('button', { name: /Switch to dark mode/ }).click();
    await present.screenshot({ path: '/tmp/confab-presenter-1920-dark.png' });

    // A phone scans it: join, and the ask form opens with the speaker chosen.
    const phone = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 } });
    const page = await phone.newPage();
    await page.goto(link.replace(baseURL ?? '', ''));
    await page.getByLabel('Username').fill('scanner');
    await page.getByRole('button', { name: 'Join Now' }).click();
    const dialog = page.getByRole('dialog', { name: 'Ask a Question' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Speaker')).toHaveValue(speaker._id);
    await dialog.getByPlaceholder('Type your question here…').fill('Seen from the back row?');
    await dialog.getByRole('button', { name: 'Submit Question' }).click();
    await expect(top).toContainText('Seen from the back row?');
    await phone.close();
    await context.close();
  });

  test('the admin hides and deletes questions; they go live from the room', async ({
    browser,
    baseURL,
    request,
  }) => {
    test.slow();
    const speaker = await signUp(request, 'Frances');
    await askViaApi(request, speaker, 'Hide this one please', 'spam1');
    await askViaApi(request, speaker, 'Delete this one please', 'spam2');
    await askViaApi(request, speaker, 'Keep this one', 'good');
    const attendee = await attendeeInRoom(browser, baseURL, 'dora', speaker);
    await expect(question(attendee, 'Delete this one')).toBeVisible();
    await attendee.route(REALTIME, (route) => route.abort());

    const adminContext = await browser.newContext({ baseURL });
    const admin = await adminContext.newPage();
    await logInAsAdmin(admin);
    await admin.getByRole('tab', { name: 'Questions' }).click();
    await admin.getByRole('searchbox', { name: 'Search questions' }).fill('this one please');
    await question(admin, 'Hide this one').getByRole('button', { name: 'Hide' }).click();
    await expect(question(attendee, 'Hide this one')).toHaveCount(0);
    // Kept for the admin, as hidden.
    await expect(question(admin, 'Hide this one')).toContainText('hidden');
    await question(admin, 'Delete this one').getByRole('button', { name: 'Delete' }).click();
    await expect(question(attendee, 'Delete this one')).toHaveCount(0);
    await expect(question(admin, 'Delete this one')).toHaveCount(0);
    await expect(question(attendee, 'Keep this one')).toBeVisible();

    // Deleting the speaker takes them and their questions off every screen.
    await admin.getByRole('tab', { name: 'Speakers' }).click();
    await admin
      .getByRole('article', { name: speaker.name })
      .getByRole('button', { name: 'Delete' })
      .click();
    await admin.getByRole('button', { name: 'Delete speaker' }).click();
    await expect(attendee.getByRole('link', { name: new RegExp(speaker.name) })).toHaveCount(0);
    await expect(question(attendee, 'Keep this one')).toHaveCount(0);
    await adminContext.close();
    await attendee.context().close();
  });

  test('pre-moderation: a question waits for approval, then appears live', async ({
    browser,
    baseURL,
    request,
  }) => {
    test.slow();
    const speaker = await signUp(request, 'Margaret');
    const adminContext = await browser.newContext({ baseURL });
    const admin = await adminContext.newPage();
    await logInAsAdmin(admin);
    await admin.getByRole('tab', { name: 'Settings' }).click();
    await admin.getByRole('switch', { name: 'Moderate questions' }).check();
    await admin.getByRole('button', { name: 'Save settings' }).click();
    await expect(admin.getByText('Settings saved.')).toBeVisible();
    try {
      const watcher = await attendeeInRoom(browser, baseURL, 'watcher', speaker, {
        width: 390,
        height: 844,
      });
      await expect(watcher.getByText('No questions yet.')).toBeVisible();

      const askerContext = await browser.newContext({ baseURL });
      const asker = await askerContext.newPage();
      await join(asker, 'eve');
      await asker.getByRole('button', { name: 'ASK A QUESTION' }).click();
      const dialog = asker.getByRole('dialog', { name: 'Ask a Question' });
      await dialog.getByPlaceholder('Type your question here…').fill('Was Apollo 11 close?');
      await dialog.getByLabel('Speaker').selectOption({ label: speaker.name });
      await dialog.getByRole('button', { name: 'Submit Question' }).click();
      await expect(asker.getByText('Your question will appear once approved')).toBeVisible();

      await admin.getByRole('tab', { name: 'Questions' }).click();
      await admin.getByText('Pending', { exact: true }).click();
      await expect(question(admin, 'Apollo 11')).toContainText('pending');
      await expect(question(watcher, 'Apollo 11')).toHaveCount(0);
      await question(admin, 'Apollo 11').getByRole('button', { name: 'Publish' }).click();
      await expect(question(watcher, 'Apollo 11')).toBeVisible();
      await watcher.screenshot({ path: '/tmp/confab-room-phone.png', fullPage: true });
      await askerContext.close();
      await watcher.context().close();
    } finally {
      const token = await adminToken(request);
      await request.put('/api/admin/settings', {
        headers: { authorization: `Bearer ${token}` },
        data: { moderateQuestions: false },
      });
      await adminContext.close();
    }
  });
});

test.describe('the speaker’s questions', () => {
  test('an asker is linked to X only when their username is an X handle', async ({
    page,
    request,
  }) => {
    const speaker = await signUp(request, 'Grace');
    await askViaApi(request, speaker, 'Who wrote the first program?', 'ada lovelace 🚀');
    await askViaApi(request, speaker, 'What is a compiler?', '@grace_h');
    await page.goto(`/speakers/${speaker.username}/dashboard`);
    const free = question(page, 'first program');
    await expect(free.getByText('ada lovelace 🚀')).toBeVisible();
    await expect(free.getByRole('link')).toHaveCount(0);
    const handle = question(page, 'compiler');
    const link = handle.getByRole('link', { name: /@grace_h on X/ });
    await expect(link).toHaveAttribute('href', 'https://x.com/grace_h');
    await expect(link).toHaveText('@grace_h');
  });

  test('a question marked answered says so once: "Answered ✓", without a second check', async ({
    browser,
    baseURL,
    request,
  }) => {
    const speaker = await signUp(request, 'Edsger');
    await askViaApi(request, speaker, 'Is goto harmful?', 'q1');
    const context = await browser.newContext({ baseURL });
    const dashboard = await context.newPage();
    await dashboard.goto(
      `/SpeakerLogin#${new URLSearchParams({ username: speaker.username, secret: speaker.secret }).toString()}`,
    );
    await expect(dashboard).toHaveURL(new RegExp(`/speakers/${speaker.username}/dashboard$`));
    await question(dashboard, 'goto').getByRole('button', { name: 'Mark answered' }).click();
    const answered = question(dashboard, 'goto').getByRole('button', { name: 'Answered ✓' });
    await expect(answered).toBeVisible();
    await expect(answered.locator('svg')).toHaveCount(0);
    await context.close();
  });
});
