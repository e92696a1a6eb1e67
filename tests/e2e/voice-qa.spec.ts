import type { Page } from '@playwright/test';
import { ADMIN_PASSWORD, logInAsAdmin } from './admin-helpers.ts';
import { expect, join, startServer, test } from './fixtures.ts';
import { expectNoHorizontalScroll, portraitPng, uniqueName } from './qa-helpers.ts';

const PHONE = { width: 390, height: 844 };
const PROJECTOR = { width: 1920, height: 1080 };

/** A screenshot of the step, kept with the test's results to be looked at. */
async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`) });
}

test.describe('the room’s voice: anonymous questions and written answers', () => {
  test('an attendee asks anonymously; only the admin sees the name; the speaker’s written answer reaches the asker’s phone', async ({
    browser,
  }) => {
    // Five pages in four browser profiles against a server of its own.
    test.slow();
    const server = await startServer({ ADMIN_PASSWORD });
    const contexts = await Promise.all([
      browser.newContext({ baseURL: server.url }), // the organiser
      browser.newContext({ baseURL: server.url, viewport: PHONE, hasTouch: true }), // grace
      browser.newContext({ baseURL: server.url, viewport: PHONE, hasTouch: true }), // alan
      browser.newContext({ baseURL: server.url, viewport: PROJECTOR }), // the projector
      browser.newContext({ baseURL: server.url, viewport: PHONE }), // the speaker
    ]);
    const [organiser, graceContext, alanContext, projector, speakerContext] = contexts;
    try {
      // The programme: Ada's talk, on now.
      const { request } = organiser;
      const signUp = await request.post('/api/speakersadd', {
        multipart: {
          name: uniqueName('Ada'),
          stack: 'Engines',
          bio: 'Wrote the first program.',
          picture: { name: 'me.png', mimeType: 'image/png', buffer: await portraitPng() },
        },
      });
      expect(signUp.status()).toBe(201);
      const { speaker, secret } = (await signUp.json()) as {
        speaker: { _id: string; name: string; username: string };
        secret: string;
      };
      const login = await request.post('/api/admin/login', {
        data: { username: 'admin', password: ADMIN_PASSWORD },
      });
      const { token } = (await login.json()) as { token: string };
      const headers = { authorization: `Bearer ${token}` };
      const room = await request.post('/api/admin/rooms', { headers, data: { name: 'Hall A' } });
      const { _id: roomId } = (await room.json()) as { _id: string };
      const now = Date.now();
      const made = await request.post('/api/admin/sessions', {
        headers,
        data: {
          title: 'Notes on the engine',
          roomId,
          startsAt: new Date(now - 15 * 60_000).toISOString(),
          endsAt: new Date(now + 45 * 60_000).toISOString(),
          speakerIds: [speaker._id],
        },
      });
      expect(made.status()).toBe(201);
      const { _id: sessionId } = (await made.json()) as { _id: string };
      const talkPath = `/sessions/${sessionId}`;

      // Before the organiser allows it, the ask dialog does not offer it.
      const grace = await graceContext.newPage();
      await join(grace, 'grace');
      await grace.goto(talkPath);
      await grace.getByRole('button', { name: 'Ask', exact: true }).click();
      let dialog = grace.getByRole('dialog', { name: 'Ask a Question' });
      await expect(dialog.getByPlaceholder('Type your question here…')).toBeVisible();
      await expect(dialog.getByLabel('Ask anonymously')).toHaveCount(0);
      await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();

      // The organiser turns anonymous questions on in the console's settings.
      const admin = await organiser.newPage();
      await logInAsAdmin(admin, ADMIN_PASSWORD, 'settings');
      const allow = admin.getByRole('switch', { name: 'Allow anonymous questions' });
      await expect(allow).not.toBeChecked();
      await allow.check();
      await admin.getByRole('button', { name: 'Save settings' }).click();
      await expect(admin.getByText('Settings saved.')).toBeVisible();

      // Grace's open phone learns it live, and asks anonymously.
      await grace.getByRole('button', { name: 'Ask', exact: true }).click();
      dialog = grace.getByRole('dialog', { name: 'Ask a Question' });
      await dialog
        .getByPlaceholder('Type your question here…')
        .fill('Is the engine Turing complete?');
      await dialog.getByLabel('Ask anonymously').check();
      await shot(grace, 'phone-ask-anonymously');
      await dialog.getByRole('button', { name: 'Submit Question' }).click();
      await expect(grace.getByRole('dialog', { name: 'Thank you!' })).toBeVisible();
      await grace
        .getByRole('dialog', { name: 'Thank you!' })
        .getByRole('button', { name: 'Done' })
        .click();
      const own = grace.getByRole('article', { name: 'Question from Anonymous' });
      await expect(own.getByText('Is the engine Turing complete?')).toBeVisible();
      await expect(own.getByText('You', { exact: true })).toBeVisible();
      await expect(grace.getByText('@grace')).toHaveCount(0);

      // Another phone sees "Anonymous", and no name anywhere.
      const alan = await alanContext.newPage();
      await join(alan, 'alan');
      await alan.goto(talkPath);
      const seen = alan.getByRole('article', { name: 'Question from Anonymous' });
      await expect(seen.getByText('Is the engine Turing complete?')).toBeVisible();
      await expect(seen.getByText('Anonymous', { exact: true })).toBeVisible();
      await expect(alan.getByText('grace')).toHaveCount(0);
      await expect(seen.getByText('You', { exact: true })).toHaveCount(0);
      await shot(alan, 'phone-another-sees-anonymous');
      await expectNoHorizontalScroll(alan);

      // The admin's console names the asker.
      await admin.goto('/borderlessadmin?tab=questions');
      const row = admin.getByRole('article', { name: 'Question from grace' });
      await expect(row.getByText('@grace')).toBeVisible();
      await expect(row.getByText('(anonymous)')).toBeVisible();
      await shot(admin, 'console-questions-anonymous');

      // The speaker signs in with their link, pins the question and writes an answer.
      const dashboard = await speakerContext.newPage();
      await dashboard.goto(
        `/SpeakerLogin#username=${encodeURIComponent(speaker.username)}&secret=${encodeURIComponent(secret)}`,
      );
      await expect(dashboard).toHaveURL(new RegExp(`/speakers/${speaker.username}/dashboard$`));
      const card = dashboard.getByRole('article', { name: 'Question from Anonymous' });
      await expect(card.getByText('Is the engine Turing complete?')).toBeVisible();
      await expect(dashboard.getByText('grace')).toHaveCount(0);
      await card.getByRole('button', { name: 'Pin' }).click();
      await expect(card.getByRole('button', { name: 'Unpin' })).toBeVisible();

      // The projector of the talk shows the pinned question as "Anonymous".
      const present = await projector.newPage();
      await present.goto(`${talkPath}/present`);
      const pinned = present.getByRole('article', { name: 'Pinned question' });
      await expect(pinned.getByText('Is the engine Turing complete?')).toBeVisible();
      await expect(pinned.getByText(/Anonymous/)).toBeVisible();
      await expect(present.getByText('grace')).toHaveCount(0);

      await card.getByRole('button', { name: 'Write an answer' }).click();
      const answer = 'Yes, given enough memory.\nThe notes on <b>loops</b> say how: see note G.';
      await card.getByLabel('Written answer').fill(answer);
      await shot(dashboard, 'phone-dashboard-writing-answer');
      await card.getByRole('button', { name: 'Save answer' }).click();
      await expect(dashboard.getByText('Answer saved.')).toBeVisible();
      await expect(
        card.getByText('The notes on <b>loops</b> say how: see note G.', { exact: false }),
      ).toBeVisible();
      await expect(card.getByRole('button', { name: 'Edit answer' })).toBeVisible();

      // Grace's phone, open all along, tells her and shows the answer under her question.
      await expect(grace.getByText('Your question was answered')).toBeVisible();
      await expect(own.getByText('Answer', { exact: true })).toBeVisible();
      await expect(own.getByText(/The notes on <b>loops<\/b> say how/)).toBeVisible();
      await shot(grace, 'phone-asker-answered');
      await expectNoHorizontalScroll(grace);
      // The other phone and the projector show it too, live; the HTML stays text.
      await expect(seen.getByText(/The notes on <b>loops<\/b> say how/)).toBeVisible();
      await expect(pinned.getByText(/Yes, given enough memory/)).toBeVisible();
      await expect(present.locator('b')).toHaveCount(0);
      await shot(present, 'projector-pinned-anonymous-answered');

      // Her own questions list it, marked hers, with the answer.
      await grace.goto('/questions?show=mine');
      const mine = grace.getByRole('article', { name: 'Question from Anonymous' });
      await expect(mine.getByText('Is the engine Turing complete?')).toBeVisible();
      await expect(mine.getByText('You', { exact: true })).toBeVisible();
      await expect(mine.getByText(/Yes, given enough memory/)).toBeVisible();
      await shot(grace, 'phone-own-questions');

      // The admin edits the answer in the console; everyone sees the new text.
      await admin.reload();
      await row.getByRole('button', { name: 'Edit answer' }).click();
      await row.getByLabel('Written answer').fill('Yes: see note G.');
      await row.getByRole('button', { name: 'Save answer' }).click();
      await expect(row.getByText('Yes: see note G.')).toBeVisible();
      await expect(pinned.getByText('Yes: see note G.')).toBeVisible();
      await expect(seen.getByText('Yes: see note G.')).toBeVisible();
    } finally {
      await Promise.all(contexts.map((context) => context.close()));
      await server.stop();
    }
  });
});
