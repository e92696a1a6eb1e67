import { ADMIN_PASSWORD } from './admin-helpers.ts';
import { expect, join, test } from './fixtures.ts';
import {
  askViaApi,
  chooseSpeakerPicture,
  createSpeaker,
  expectNoHorizontalScroll,
  fillSpeakerForm,
  portraitPng,
  uniqueName,
} from './qa-helpers.ts';

const REALTIME = /\/api\/questions\/realtime/;

test.describe('live Q&A', () => {
  test('a speaker signs up, an attendee asks, and the question shows live in the room and on the dashboard', async ({
    browser,
    baseURL,
  }) => {
    // Three pages in two browser profiles, and a wait for one poll: give it room on a busy machine.
    test.slow();
    const name = uniqueName('Ada');
    const speakerContext = await browser.newContext({ baseURL });
    const attendeeContext = await browser.newContext({ baseURL });
    try {
      // The speaker signs up on /Speakerform.
      const speakerPage = await speakerContext.newPage();
      await speakerPage.goto('/Speakerform');
      await speakerPage.getByRole('button', { name: 'Add Speaker Bio' }).click();
      const form = speakerPage.getByRole('dialog', { name: 'Join as Speaker' });
      await fillSpeakerForm(form, {
        name,
        stack: 'Analytical engines',
        bio: 'Wrote the first program.\nLikes <b>bold</b> ideas.',
      });
      await chooseSpeakerPicture(speakerPage, form, {
        name: 'ada.png',
        mimeType: 'image/png',
        buffer: await portraitPng(),
      });
      await expect(form.getByRole('img', { name: 'Chosen picture' })).toBeVisible();
      await form.getByRole('button', { name: 'Upload Bio' }).click();

      const uploaded = speakerPage.getByRole('dialog', { name: 'Uploaded Succesfully' });
      await expect(uploaded).toBeVisible();
      const username = (await uploaded.getByLabel('Your username').textContent()) ?? '';
      expect(username).toMatch(/^ada-[a-z]+(-\d+)?$/);
      await expect(uploaded.getByRole('link', { name: 'View Memories' })).toHaveAttribute(
        'href',
        '/home',
      );
      await uploaded.getByRole('button', { name: 'Close' }).click();

      // The speaker logs in with that username and opens the dashboard.
      await speakerPage.goto('/SpeakerLogin');
      await speakerPage.getByLabel('Username').fill(username.toUpperCase());
      await speakerPage.getByRole('button', { name: 'Login' }).click();
      await expect(speakerPage).toHaveURL(new RegExp(`/speakers/${username}/dashboard$`));
      await expect(speakerPage.getByRole('heading', { name: `${name} Dashboard` })).toBeVisible();
      await expect(speakerPage.getByText('Analytical engines')).toBeVisible();
      await expect(speakerPage.getByText('Likes <b>bold</b> ideas.')).toBeVisible();
      await expect(speakerPage.getByText('No questions available.')).toBeVisible();
      // From here on the dashboard may not poll: what arrives, arrives over the socket.
      await speakerPage.route(REALTIME, (route) => route.abort());

      // An attendee opens the Q&A room and picks the speaker.
      const roomPage = await attendeeContext.newPage();
      await join(roomPage, 'grace');
      await roomPage.goto('/speakerscard');
      await roomPage.getByRole('link', { name: new RegExp(name) }).click();
      const panel = roomPage.getByRole('region', { name: `Questions for ${name}` });
      await expect(panel.getByText('No questions yet.')).toBeVisible();
      await roomPage.route(REALTIME, (route) => route.abort());

      // Another attendee (same browser profile as the room, another tab) asks from /home.
      const askPage = await attendeeContext.newPage();
      await askPage.goto('/home');
      await askPage.getByRole('button', { name: 'ASK A QUESTION' }).click();
      const dialog = askPage.getByRole('dialog', { name: 'Ask a Question' });
      await dialog.getByPlaceholder('Type your question here…').fill('How did you think of loops?');
      await dialog.getByLabel('Speaker').selectOption({ label: name });
      await dialog.getByRole('button', { name: 'Submit Question' }).click();
      await expect(askPage.getByText('Question submitted successfully!')).toBeVisible();
      const thanks = askPage.getByRole('dialog', { name: 'Thank you!' });
      await expect(thanks).toBeVisible();
      await expect(dialog).toBeHidden();

      // It shows in the room and on the dashboard without a reload and without polling.
      await expect(panel.getByText('How did you think of loops?')).toBeVisible();
      await expect(panel.getByText('@grace')).toBeVisible();
      await expect(panel.getByText('No questions yet.')).toBeHidden();
      const askedOnDashboard = speakerPage.getByRole('article');
      await expect(askedOnDashboard).toHaveCount(1);
      await expect(askedOnDashboard.getByText('How did you think of loops?')).toBeVisible();
      const handle = askedOnDashboard.getByRole('link', { name: /@grace on X/ });
      await expect(handle).toHaveAttribute('href', 'https://x.com/grace');
      await expect(handle).toHaveAttribute('target', '_blank');
      await expect(handle).toHaveAttribute('rel', 'noopener noreferrer');

      // Polling again merges by id: still one copy of the question everywhere.
      await roomPage.unroute(REALTIME);
      await speakerPage.unroute(REALTIME);
      await Promise.all([
        roomPage.waitForResponse(REALTIME),
        speakerPage.waitForResponse(REALTIME),
      ]);
      await expect(panel.getByRole('article')).toHaveCount(1);
      await expect(askedOnDashboard).toHaveCount(1);

      // "See my questions" leads back to it.
      await thanks.getByRole('link', { name: 'See my questions' }).click();
      await expect(askPage).toHaveURL(/\/questions\?show=mine$/);
      await expect(askPage.getByText('How did you think of loops?')).toBeVisible();
    } finally {
      await speakerContext.close();
      await attendeeContext.close();
    }
  });

  test('"Recent" is newest first in the room and on /questions; the room\'s chat is its own tab', async ({
    page,
    request,
  }) => {
    const speaker = await createSpeaker(request, uniqueName('Radia'));
    for (const text of ['First asked', 'Second asked', 'Third asked']) {
      await askViaApi(request, speaker, `${text} in order?`, 'orderly');
    }
    await join(page, 'order-reader');
    await page.goto(`/speakerscard?speaker=${speaker._id}`);
    const log = page.getByRole('log', { name: 'Questions' });
    await expect(log.getByRole('article')).toHaveCount(3);
    // The room opens as the spec's chat: oldest at the top, the newest at the bottom.
    await expect(page.getByRole('radio', { name: 'Chat' })).toBeChecked();
    await expect(log.getByRole('article').first()).toContainText('First asked');
    await page
      .getByRole('radiogroup', { name: 'Order of the questions' })
      .getByText('Recent', { exact: true })
      .click();
    await expect(log.getByRole('article').first()).toContainText('Third asked');
    await expect(log.getByRole('article').last()).toContainText('First asked');

    await page.goto('/questions');
    const feed = page.getByRole('feed', { name: 'Questions' });
    await expect(page.getByRole('radio', { name: 'Recent' })).toBeChecked();
    const texts = await feed
      .getByRole('article')
      .filter({ hasText: 'in order?' })
      .allTextContents();
    expect(texts.map((text) => /(First|Second|Third) asked/.exec(text)?.[1])).toEqual([
      'Third',
      'Second',
      'First',
    ]);
  });

  test('the avatar group counts the other people who asked', async ({ page, request }) => {
    const speaker = await createSpeaker(request, uniqueName('Popular'));
    // a2 asks twice, with two questions (the same one twice would be refused).
    for (const [i, asker] of ['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a2'].entries()) {
      await askViaApi(request, speaker, `Question ${i} from ${asker}`, asker);
    }
    await join(page, 'viewer');
    await page.goto(`/speakerscard?speaker=${speaker._id}`);
    const panel = page.getByRole('region', { name: `Questions for ${speaker.name}` });
    await expect(panel.getByRole('article')).toHaveCount(7);
    await expect(panel.getByRole('group', { name: '6 people asked' })).toBeVisible();
    await expect(panel.getByText('+2', { exact: true })).toBeVisible();
  });

  test('the Q&A room shows its empty states', async ({ page, request }) => {
    await page.goto('/speakerscard');
    await expect(page.getByRole('heading', { name: 'Select Speakers' })).toBeVisible();
    await expect(page.getByText('Select a speaker to view the dashboard')).toBeVisible();
    const speaker = await createSpeaker(request, uniqueName('Quiet'), 'Rust');
    // A new speaker shows up in the list by itself.
    const link = page.getByRole('link', { name: new RegExp(speaker.name) });
    await expect(link).toBeVisible();
    await expect(link).toContainText('Rust');
    await link.click();
    await expect(page.getByText('No questions yet.')).toBeVisible();
  });

  test('an empty app says "No speakers available."', async ({ browser }) => {
    const { startServer } = await import('./fixtures.ts');
    const server = await startServer();
    const context = await browser.newContext({ baseURL: server.url });
    try {
      const page = await context.newPage();
      await page.goto('/speakerscard');
      await expect(page.getByText('No speakers available.')).toBeVisible();
    } finally {
      await context.close();
      await server.stop();
    }
  });

  test('on a phone the room shows the list, then the chat with a Back button', async ({
    page,
    request,
  }) => {
    const speaker = await createSpeaker(request, uniqueName('Mobile'), 'Kotlin');
    await askViaApi(request, speaker, 'Does it work on phones?', 'pat');
    await page.setViewportSize({ width: 360, height: 740 });
    await join(page, 'sam');
    await page.goto('/speakerscard');
    const listHeading = page.getByRole('heading', { name: 'Select Speakers' });
    await expect(listHeading).toBeVisible();
    await expect(page.getByText('Select a speaker to view the dashboard')).toBeHidden();
    await expectNoHorizontalScroll(page);

    await page.getByRole('link', { name: new RegExp(speaker.name) }).click();
    const panel = page.getByRole('region', { name: `Questions for ${speaker.name}` });
    await expect(panel.getByText('Does it work on phones?')).toBeVisible();
    await expect(listHeading).toBeHidden();
    const back = page.getByRole('button', { name: 'Back', exact: true });
    await expect(back).toBeVisible();
    const box = await back.boundingBox();
    expect(box?.height ?? 0).toBeGreaterThanOrEqual(36);
    await expectNoHorizontalScroll(page);

    await back.click();
    await expect(listHeading).toBeVisible();
    await expect(panel).toBeHidden();
    await expect(page).toHaveURL(/\/speakerscard$/);
  });

  test('on a wide screen the list and the chat sit side by side without Back', async ({
    page,
    request,
  }) => {
    const speaker = await createSpeaker(request, uniqueName('Desktop'));
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`/speakerscard?speaker=${speaker._id}`);
    await expect(page.getByRole('heading', { name: 'Select Speakers' })).toBeVisible();
    await expect(page.getByRole('heading', { name: speaker.name })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Back', exact: true })).toBeHidden();
  });
});

test.describe('Q&A per session', () => {
  test('an attendee asks the panel on now from the ask form; its second speaker sees it on their dashboard', async ({
    browser,
  }) => {
    // A server of its own: the programme's talk on now would show in every other test's forms.
    const { startServer } = await import('./fixtures.ts');
    const server = await startServer({ ADMIN_PASSWORD });
    const context = await browser.newContext({ baseURL: server.url });
    try {
      const { request } = context;
      const ada = await createSpeaker(request, uniqueName('Ada'));
      const alan = await createSpeaker(request, uniqueName('Alan'));
      const login = await request.post('/api/admin/login', {
        data: { username: 'admin', password: ADMIN_PASSWORD },
      });
      const { token } = (await login.json()) as { token: string };
      const headers = { authorization: `Bearer ${token}` };
      const room = await request.post('/api/admin/rooms', { headers, data: { name: 'Hall A' } });
      const { _id: roomId } = (await room.json()) as { _id: string };
      const now = Date.now();
      const panel = await request.post('/api/admin/sessions', {
        headers,
        data: {
          title: 'Engines, a panel',
          roomId,
          startsAt: new Date(now - 15 * 60_000).toISOString(),
          endsAt: new Date(now + 45 * 60_000).toISOString(),
          speakerIds: [ada._id, alan._id],
        },
      });
      expect(panel.status()).toBe(201);

      const page = await context.newPage();
      await join(page, 'grace');
      await page.goto('/home');
      await page.getByRole('button', { name: 'ASK A QUESTION' }).click();
      const dialog = page.getByRole('dialog', { name: 'Ask a Question' });
      await dialog.getByPlaceholder('Type your question here…').fill('Which engine came first?');
      // The talk on now comes first, before the speakers.
      const select = dialog.getByLabel('Speaker');
      await expect(select.locator('option').nth(1)).toHaveText('Engines, a panel');
      await select.selectOption({ label: 'Engines, a panel' });
      const whole = dialog.getByRole('radio', { name: 'The whole panel' });
      await expect(whole).toBeChecked();
      await expect(dialog.getByRole('radio', { name: alan.name })).toBeVisible();
      await dialog.getByRole('button', { name: 'Submit Question' }).click();
      await expect(page.getByRole('dialog', { name: 'Thank you!' })).toBeVisible();

      // The Q&A room offers the talk on now, with its question.
      await page.goto('/speakerscard');
      await page.getByRole('link', { name: /Engines, a panel/ }).click();
      const talk = page.getByRole('region', { name: 'Questions for Engines, a panel' });
      await expect(talk.getByText('Which engine came first?')).toBeVisible();

      // The panel's second speaker sees it on their dashboard, on the session on now.
      await page.goto(`/speakers/${alan.username}/dashboard`);
      await expect(page.getByLabel('Session')).toHaveValue(/./);
      await expect(page.getByLabel('Session').locator('option:checked')).toHaveText(
        'On now · Engines, a panel',
      );
      const asked = page.getByRole('article');
      await expect(asked).toHaveCount(1);
      await expect(asked.getByText('Which engine came first?')).toBeVisible();
      await expect(asked.getByText('To the panel')).toBeVisible();
    } finally {
      await context.close();
      await server.stop();
    }
  });
});

test.describe('speaker login', () => {
  test('shows the server error, "Login failed." when the server cannot answer, and requires a username', async ({
    page,
  }) => {
    await page.goto('/SpeakerLogin');
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByText('Enter your username')).toBeVisible();

    await page.getByLabel('Username').fill('nobody-by-this-name');
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByRole('alert')).toHaveText('Speaker not found');
    await expect(page).toHaveURL(/\/SpeakerLogin$/);

    await page.route('**/api/speakers/login', (route) => route.abort());
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByRole('alert')).toHaveText('Login failed.');
  });
});
