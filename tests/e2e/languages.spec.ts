import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { CATALOGS, messagesIn } from '../../src/shared/i18n/catalogs.ts';
import { LANGUAGES, type Language, directionOf } from '../../src/shared/i18n/languages.ts';
import type { MessageId, MessageValues } from '../../src/shared/i18n/messages.ts';
import { ADMIN_PASSWORD } from './admin-helpers.ts';
import { type RunningServer, expect, startServer, test as base } from './fixtures.ts';
import { adminToken, createSessionViaApi, openPollViaApi } from './poll-helpers.ts';
import {
  type CreatedSpeaker,
  askViaApi,
  createSpeaker,
  expectNoHorizontalScroll,
  uniqueName,
} from './qa-helpers.ts';

/** The programme needs the organiser: this spec's server has an admin password. */
const test = base.extend<object, { languageServer: RunningServer }>({
  languageServer: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startServer({ ADMIN_PASSWORD });
      await use(server);
      await server.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ languageServer }, use) => {
    await use(languageServer.url);
  },
});

const PHONE = { width: 390, height: 844 };
const ENGLISH_IDS = Object.keys(CATALOGS.en) as MessageId[];

/**
 * The message whose English text is `english`, in `language`: the tests name texts as the spec
 * writes them, and read what each language says for them from its catalog.
 */
function say(language: Language, english: string, values?: MessageValues): string {
  const ids = ENGLISH_IDS.filter((id) => CATALOGS.en[id] === english);
  if (ids.length === 0) throw new Error(`No message reads "${english}" in English`);
  // Several names for one English text: each language may word them apart, any is right.
  return messagesIn(language).format(ids[0] as MessageId, values);
}

/** Every text of the page a person reads or hears: its words and its labels. */
const readableTexts = (page: Page) =>
  page.evaluate(() => {
    const texts = [document.body.innerText, document.title];
    for (const element of document.querySelectorAll('[aria-label],[placeholder],[title],[alt]')) {
      for (const name of ['aria-label', 'placeholder', 'title', 'alt']) {
        const value = element.getAttribute(name);
        if (value) texts.push(value);
      }
    }
    return texts.join('\n');
  });

/** The names of messages the page shows instead of their text: a message missing or broken. */
async function messageNamesShown(page: Page): Promise<string[]> {
  const text = await readableTexts(page);
  return ENGLISH_IDS.filter((id) => text.includes(id));
}

/**
 * Words in Latin letters a Japanese or Arabic screen may show outside people's own text: the
 * event's and the app's names, file formats, units, and names of things that are not translated.
 */
const LATIN_ALLOWED =
  /^(Confab|Q&A|QR|X|UTC|GMT|MB|KB|GB|URL|HEIC|HEIF|JPG|JPEG|PNG|WebP|GIF|AVIF|MP4|WebM|MOV|OBS|iPhone|Android|Web|Push|English|Fran[çc]ais|Deutsch|Espa[ñn]ol|Portugu[êe]s|Nadia|Layla|Opening|keynote|Room|of|lina|omar|What|comes|after|the|Which|track|next|Data|[a-z0-9]{1,2})$/;

/**
 * Text in Latin letters on a screen written in another script, outside people's own text (which
 * is shown `dir="auto"` or in `<bdi>`): English the catalogs do not cover.
 */
const latinOutsidePeoplesText = (page: Page) =>
  page.evaluate((allowed) => {
    const allow = new RegExp(allowed);
    const found = new Set<string>();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      // People's text keeps its own direction; an address is always written left to right.
      if (
        !parent ||
        parent.closest('[dir="auto"], [dir="ltr"], bdi, script, style, noscript, [hidden]')
      ) {
        continue;
      }
      if (parent.getClientRects().length === 0) continue;
      for (const word of (node.textContent ?? '').match(/[A-Za-z][A-Za-z&'’]{2,}/g) ?? []) {
        if (!allow.test(word)) found.add(`${word} (${parent.tagName.toLowerCase()})`);
      }
    }
    return [...found];
  }, LATIN_ALLOWED.source);

/** A phone whose saved language is `language`, joined as `username` (or not joined). */
async function phoneIn(
  browser: Browser,
  baseURL: string,
  language: Language,
  username?: string,
): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: PHONE, locale: language });
  await context.addInitScript(
    ([chosen, name]) => {
      window.localStorage.setItem('confab-language', chosen);
      if (name) window.localStorage.setItem('username', name);
    },
    [language, username ?? ''] as const,
  );
  return context.newPage();
}

interface Programme {
  speaker: CreatedSpeaker;
  sessionId: string;
  roomId: string;
}

/** A speaker with a question, a session on now in a room, with an open poll. */
async function programme(request: APIRequestContext): Promise<Programme> {
  const speaker = await createSpeaker(request, uniqueName('Nadia'));
  await askViaApi(request, speaker, 'What comes after the keynote?', 'omar');
  const token = await adminToken(request);
  const now = Date.now();
  const sessionId = await createSessionViaApi(request, token, uniqueName('Opening keynote'), {
    startsAt: new Date(now - 10 * 60_000),
    endsAt: new Date(now + 50 * 60_000),
  });
  await openPollViaApi(request, token, {
    sessionId,
    title: 'Which track next?',
    type: 'single',
    options: [{ text: 'Web' }, { text: 'Data' }],
  });
  const session = (await (await request.get(`/api/sessions/${sessionId}`)).json()) as {
    roomId: string;
  };
  return { speaker, sessionId, roomId: session.roomId };
}

test.describe('every screen in every language', () => {
  for (const language of LANGUAGES) {
    test(`${language}: every screen shows its texts from the ${language} catalog`, async ({
      browser,
      baseURL,
      request,
    }) => {
      test.setTimeout(120_000);
      const { speaker, sessionId, roomId } = await programme(request);
      const screens = [
        '/home',
        '/memories',
        '/memoryForm',
        '/speakerscard',
        `/speakerscard?speaker=${speaker._id}`,
        '/schedule',
        `/sessions/${sessionId}`,
        '/privacy',
        '/SpeakerLogin',
        '/Speakerform',
        `/speakers/${speaker.username}/dashboard`,
        '/no-such-page',
      ];
      const bigScreens = [
        '/wall',
        `/rooms/${roomId}/present`,
        `/sessions/${sessionId}/present`,
        `/overlay/sessions/${sessionId}`,
        `/speakers/${speaker.username}/present`,
      ];
      const visitor = await phoneIn(browser, baseURL ?? '', language);
      await visitor.goto('/');
      await expect(visitor.locator('html')).toHaveAttribute('lang', language);
      await expect(visitor.getByRole('button', { name: say(language, 'Join Now') })).toBeVisible();
      expect(await messageNamesShown(visitor)).toEqual([]);
      await visitor.context().close();

      const page = await phoneIn(browser, baseURL ?? '', language, 'lina');
      const check = async (path: string) => {
        await page.goto(path);
        await expect(page.locator('html'), path).toHaveAttribute('lang', language);
        await expect(page.locator('html'), path).toHaveAttribute('dir', directionOf(language));
        // Each screen's first lists and texts have arrived once nothing is loading.
        await expect(page.locator('[data-shell]')).toHaveCount(0);
        await page.waitForLoadState('load');
        await expect.poll(() => messageNamesShown(page), { message: path }).toEqual([]);
        await page.screenshot({
          path: test.info().outputPath(`${path.replace(/\W+/g, '-').slice(0, 40)}.png`),
        });
        if (language === 'ja' || language === 'ar') {
          expect({ path, english: await latinOutsidePeoplesText(page) }).toEqual({
            path,
            english: [],
          });
        }
      };
      for (const path of screens) await check(path);
      for (const path of bigScreens) await check(`${path}?lang=${language}`);
      await page.context().close();
    });
  }
});

/** What the join page and the Q&A room look like in a language, as its speakers would use them. */
for (const language of ['fr', 'ar', 'ja'] as const) {
  test(`${language}: joins and asks in the Q&A room on a phone, in ${language}`, async ({
    browser,
    baseURL,
    request,
  }) => {
    test.setTimeout(60_000);
    const speaker = await createSpeaker(request, uniqueName('Layla'));
    // The other script's question keeps its own direction on the page.
    await askViaApi(
      request,
      speaker,
      language === 'ar' ? 'Is the talk recorded? (with slides)' : 'هل ستنشر الشرائح؟',
      'sam',
    );
    const context = await browser.newContext({ baseURL, viewport: PHONE, locale: language });
    const page = await context.newPage();

    // The server answers the browser's language with the join page already in it.
    const served = await request.get('/', {
      headers: { accept: 'text/html', 'accept-language': language },
    });
    const html = await served.text();
    expect(html).toContain(`lang="${language}" dir="${directionOf(language)}"`);
    expect(html).toContain(say(language, 'Join Now'));

    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('dir', directionOf(language));
    await page
      .getByRole('textbox')
      .first()
      .fill(language === 'ja' ? 'さくら' : 'Amira');
    await page.screenshot({ path: test.info().outputPath(`${language}-join.png`) });
    await page.getByRole('button', { name: say(language, 'Join Now') }).click();
    await expect(page).toHaveURL(/\/home$/);
    await expectNoHorizontalScroll(page);
    await page.screenshot({ path: test.info().outputPath(`${language}-home.png`) });

    await page.goto(`/speakerscard?speaker=${speaker._id}`);
    const asked = page.getByText(
      language === 'ar' ? 'Is the talk recorded? (with slides)' : 'هل ستنشر الشرائح؟',
    );
    await expect(asked).toBeVisible();
    await expect(asked).toHaveAttribute('dir', 'auto');
    await page.getByRole('button', { name: say(language, 'Ask') }).click();
    const dialog = page.getByRole('dialog', { name: say(language, 'Ask a Question') });
    const question =
      language === 'ar' ? 'ما هي الخطوة التالية للمشروع؟' : `Question from ${language}: what next?`;
    await dialog.getByRole('textbox').first().fill(question);
    await page.screenshot({ path: test.info().outputPath(`${language}-ask.png`) });
    await dialog.getByRole('button', { name: say(language, 'Submit Question') }).click();
    await expect(page.getByRole('dialog', { name: say(language, 'Thank you!') })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByText(question)).toBeVisible();
    await expect(page.getByText(question)).toHaveAttribute('dir', 'auto');
    await expectNoHorizontalScroll(page);
    expect(await messageNamesShown(page)).toEqual([]);
    await page.screenshot({
      path: test.info().outputPath(`${language}-qa.png`),
      fullPage: true,
    });
    await context.close();
  });
}
