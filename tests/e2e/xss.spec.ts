import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { type RunningServer, expect, join, startServer, test as base } from './fixtures.ts';
import { portraitPng } from './qa-helpers.ts';

const PASSWORD = 'e2e xss moderator password';

/** Hostile texts a person could type; each must come back as the same visible text. */
const CAPTIONS = [
  `<script>alert('caption')</script>`,
  `<img src=x onerror="alert('caption-img')"> look`,
  `<a href="javascript:alert('caption-link')">click me</a> javascript:alert(1)`,
  `&lt;b&gt;bold&lt;/b&gt; &amp; &#60;i&#62; &quot;`,
];
const USERNAME = `<img src=x onerror=alert('u')>`;
const ASKER = `<script>alert('asker')</script>`;
const VIEWER = `<svg onload=alert('viewer')>`;
const SPEAKER_NAME = `<img src=x onerror=alert('name')> Eve ${Date.now().toString(36)}`;
const SPEAKER_STACK = `<script>alert('stack')</script>`;
const SPEAKER_BIO = `<iframe src="javascript:alert('bio')"></iframe> &amp; <b>bold</b>`;
const QUESTION = `<img src=x onerror="alert('question')"> <a href="javascript:alert(2)">why</a>?`;

/** Its own server, with a known admin password, so the admin screen is covered too. */
const test = base.extend<object, { xssServer: RunningServer }>({
  xssServer: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startServer({ ADMIN_PASSWORD: PASSWORD });
      await use(server);
      await server.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ xssServer }, use) => {
    await use(xssServer.url);
  },
});

/** Fails the test on any dialog (alert, confirm, prompt) the page opens. */
function watchDialogs(page: Page): string[] {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return dialogs;
}

/** No element, attribute or script was made out of a typed text. */
async function expectNothingInjected(page: Page, dialogs: string[], where: string): Promise<void> {
  const injected = await page.evaluate(() =>
    [
      ...document.querySelectorAll(
        // The page's data block (decision 185) is the one script without a source, and no code.
        'script:not([src]):not(#confab-page-data[type="application/json"]), img[src="x"], iframe, svg[onload], [onerror], [onload], a[href^="javascript:" i], b, i',
      ),
      // A data block that a typed text broke out of would no longer be JSON.
      ...[...document.querySelectorAll('#confab-page-data')].filter((block) => {
        try {
          JSON.parse(block.textContent);
          return false;
        } catch {
          return true;
        }
      }),
    ]
      // Mantine's own markup uses neither <b> nor <i>; any there came from a text.
      .map((element) => element.outerHTML.slice(0, 120)),
  );
  expect(injected, where).toEqual([]);
  expect(dialogs, where).toEqual([]);
}

/** A text shown as typed (whitespace may be collapsed by the layout). */
const shown = (page: Page, text: string) => page.getByText(text, { exact: false }).first();

test.describe('typed texts are shown as text on every screen', () => {
  test.describe.configure({ mode: 'serial' });

  let memoryIds: string[] = [];
  let speaker: { _id: string; username: string; name: string };

  test.beforeAll(async ({ request }) => {
    memoryIds = [];
    for (const [index, caption] of CAPTIONS.entries()) {
      const image = await sharp({
        create: { width: 80, height: 60, channels: 3, background: `#${index}0a0f0` },
      })
        .png()
        .toBuffer();
      const response = await request.post('/api/memories', {
        multipart: {
          caption,
          username: USERNAME,
          files: { name: 'photo.png', mimeType: 'image/png', buffer: image },
        },
      });
      expect(response.status()).toBe(201);
      const body = (await response.json()) as { memories: { _id: string }[] };
      memoryIds.push(...body.memories.map((memory) => memory._id));
    }
    const created = await request.post('/api/speakersadd', {
      multipart: {
        name: SPEAKER_NAME,
        stack: SPEAKER_STACK,
        bio: SPEAKER_BIO,
        picture: { name: 'me.png', mimeType: 'image/png', buffer: await portraitPng() },
      },
    });
    expect(created.status()).toBe(201);
    speaker = ((await created.json()) as { speaker: typeof speaker }).speaker;
    const asked = await request.post('/questions', {
      data: {
        speakerId: speaker._id,
        speakerName: speaker.name,
        question: QUESTION,
        askerUsername: ASKER,
      },
    });
    expect(asked.status()).toBe(201);
  });

  test('home (memory and ask dialogs), gallery and memory pages', async ({ page }) => {
    const dialogs = watchDialogs(page);
    await join(page, VIEWER);
    await expect(shown(page, CAPTIONS[3] ?? '')).toBeVisible();
    for (const caption of CAPTIONS) await expect(shown(page, caption)).toBeVisible();
    await expect(shown(page, USERNAME)).toBeVisible();
    await expectNothingInjected(page, dialogs, '/home');

    // A memory's dialog names its author; the ask dialog lists the speaker.
    await page
      .getByRole('button', { name: `Open memory by ${USERNAME}` })
      .first()
      .click();
    const opened = page.getByRole('dialog');
    await expect(opened.getByText(USERNAME, { exact: false }).first()).toBeVisible();
    await expectNothingInjected(page, dialogs, 'memory dialog');
    await page.keyboard.press('Escape');
    await expect(opened).toBeHidden();

    await page.getByRole('button', { name: 'ASK A QUESTION' }).click();
    const ask = page.getByRole('dialog', { name: 'Ask a Question' });
    await ask.getByLabel('Speaker').selectOption({ label: SPEAKER_NAME });
    await ask.getByPlaceholder('Type your question here…').fill(CAPTIONS[1] ?? '');
    await expectNothingInjected(page, dialogs, 'ask dialog');
    await ask.getByRole('button', { name: 'Submit Question' }).click();
    await expect(page.getByText('Question submitted successfully!')).toBeVisible();
    await page.keyboard.press('Escape');

    await page.goto('/memories');
    await expect(shown(page, CAPTIONS[0] ?? '')).toBeVisible();
    await expect(shown(page, USERNAME)).toBeVisible();
    await expectNothingInjected(page, dialogs, '/memories');

    for (const id of memoryIds) {
      await page.goto(`/memory?id=${id}`);
      await expect(shown(page, USERNAME)).toBeVisible();
      await expectNothingInjected(page, dialogs, `/memory?id=${id}`);
      // The server-rendered link preview tags hold the texts as attribute values only.
      const description = await page
        .locator('meta[property="og:description"]')
        .getAttribute('content');
      expect(CAPTIONS.some((caption) => description?.includes(caption.slice(0, 20)))).toBe(true);
    }
  });

  test('Q&A room, my questions and the speaker dashboard', async ({ page }) => {
    const dialogs = watchDialogs(page);
    await join(page, ASKER);
    await page.goto(`/speakerscard?speaker=${speaker._id}`);
    await expect(page.getByRole('heading', { name: SPEAKER_NAME })).toBeVisible();
    await expect(shown(page, QUESTION)).toBeVisible();
    await expect(shown(page, SPEAKER_STACK)).toBeVisible();
    await expectNothingInjected(page, dialogs, '/speakerscard');

    await page.goto('/questions');
    await expect(shown(page, QUESTION)).toBeVisible();
    // The one asked through the dialog by the viewer is there too.
    await expect(shown(page, CAPTIONS[1] ?? '')).toBeVisible();
    await expectNothingInjected(page, dialogs, '/questions');

    await page.goto(`/speakers/${encodeURIComponent(speaker.username)}/dashboard`);
    await expect(shown(page, QUESTION)).toBeVisible();
    await expectNothingInjected(page, dialogs, 'speaker dashboard');
  });

  test('the admin screen', async ({ page }) => {
    const dialogs = watchDialogs(page);
    await page.goto('/borderlessadmin?tab=memories');
    await page.getByRole('textbox', { name: 'Username' }).fill('admin');
    await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(
      page.getByRole('article', { name: `Memory by ${USERNAME}` }).first(),
    ).toBeVisible();
    for (const caption of CAPTIONS) await expect(shown(page, caption)).toBeVisible();
    await expectNothingInjected(page, dialogs, '/borderlessadmin');
  });
});
