import type { Locator, Page } from '@playwright/test';
import { brandPalette } from '../../src/shared/brand-palette.ts';
import { type RunningServer, expect, join, startServer, test as base } from './fixtures.ts';
import { ADMIN_PASSWORD, logInAsAdmin } from './admin-helpers.ts';
import { png } from './memory-helpers.ts';
import {
  askViaApi,
  createSpeaker,
  expectNoHorizontalScroll,
  portraitPng,
  uniqueName,
} from './qa-helpers.ts';

/** The console specs change the event's settings: they run against a server of their own. */
const test = base.extend<object, { consoleServer: RunningServer }>({
  consoleServer: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startServer({ ADMIN_PASSWORD });
      await use(server);
      await server.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ consoleServer }, use) => {
    await use(consoleServer.url);
  },
});

/** The colour a page's primary shade resolves to, as the browser computes it. */
const brandShade = (page: Page, shade: number) =>
  page.evaluate(
    (index) =>
      getComputedStyle(document.documentElement).getPropertyValue(`--confab-brand-${index}`).trim(),
    shade,
  );

/** `#rrggbb` as the browser writes a computed colour. */
const rgb = (hex: string) => {
  const value = Number.parseInt(hex.slice(1), 16);
  return `rgb(${(value >> 16) & 255}, ${(value >> 8) & 255}, ${value & 255})`;
};

test.describe('the organiser console', () => {
  test('the name and colour saved in Settings reach open pages elsewhere without a reload', async ({
    browser,
    baseURL,
    page,
    request,
  }) => {
    test.slow();
    const speaker = await createSpeaker(request, uniqueName('Hedy'));
    // Someone about to join, and the speaker's presenter view on a projector.
    const visitorContext = await browser.newContext({ baseURL });
    const visitor = await visitorContext.newPage();
    await visitor.goto('/');
    await expect(visitor.getByRole('heading', { name: 'Join the Fun at Confab!' })).toBeVisible();
    const projectorContext = await browser.newContext({ baseURL });
    const projector = await projectorContext.newPage();
    await projector.goto(`/speakers/${speaker.username}/present`);
    await expect(projector.getByText(speaker.name).first()).toBeVisible();
    // The wall behind the stage.
    const wallContext = await browser.newContext({ baseURL });
    const wall = await wallContext.newPage();
    await wall.goto('/wall');
    await expect(wall.getByText('Confab').first()).toBeVisible();
    // The visitor starts on the form: the join page follows the branding live once it is used.
    await visitor.getByRole('textbox', { name: 'Username' }).click();
    await visitor.waitForLoadState('networkidle');

    await logInAsAdmin(page, ADMIN_PASSWORD, 'settings');
    const name = uniqueName('DevFest');
    await page.getByRole('textbox', { name: 'Event name' }).fill(name);
    await page.getByRole('textbox', { name: 'Primary colour' }).fill('#c2255c');
    await page.getByRole('textbox', { name: 'Event name' }).click();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByText('Settings saved.')).toBeVisible();
    const shades = brandPalette('#c2255c');

    try {
      // The visitor's join page: the new name and colour, without a reload.
      await expect(visitor.getByRole('heading', { name: `Join the Fun at ${name}!` })).toBeVisible({
        timeout: 10_000,
      });
      expect(await brandShade(visitor, 6)).toBe(shades[6]);
      await expect(visitor.getByRole('button', { name: 'Join Now' })).toHaveCSS(
        'background-color',
        rgb(shades[8] ?? ''),
      );
      await expect(visitor).toHaveTitle(name);
      // The projector too.
      await expect.poll(() => brandShade(projector, 6), { timeout: 10_000 }).toBe(shades[6]);
      await expect(projector).toHaveTitle(name);
      // The wall too: its name and colour, without a reload.
      await expect(wall.getByText(name).first()).toBeVisible({ timeout: 10_000 });
      await expect.poll(() => brandShade(wall, 6), { timeout: 10_000 }).toBe(shades[6]);
      // A page loaded afresh has them in its first paint, before any script.
      const fresh = await browser.newContext({ baseURL, javaScriptEnabled: false });
      const still = await fresh.newPage();
      await still.goto('/');
      await expect(still.getByRole('heading', { name: `Join the Fun at ${name}!` })).toBeVisible();
      expect(await brandShade(still, 6)).toBe(shades[6]);
      await fresh.close();
      // The console itself took them at once.
      await expect(page).toHaveTitle(`Admin · ${name}`);
    } finally {
      await page.getByRole('textbox', { name: 'Event name' }).fill('Confab');
      await page.getByRole('textbox', { name: 'Primary colour' }).fill('#4c6ef5');
      await page.getByRole('textbox', { name: 'Event name' }).click();
      await page.getByRole('button', { name: 'Save settings' }).click();
      await expect(visitor.getByRole('heading', { name: 'Join the Fun at Confab!' })).toBeVisible({
        timeout: 10_000,
      });
      await visitorContext.close();
      await projectorContext.close();
      await wallContext.close();
    }
  });

  test('the app’s own logo takes the event’s colour, on open pages too', async ({
    browser,
    baseURL,
    request,
  }) => {
    const login = await request.post('/api/admin/login', {
      data: { username: 'admin', password: ADMIN_PASSWORD },
    });
    const { token } = (await login.json()) as { token: string };
    const setColor = async (primaryColor: string) => {
      const saved = await request.put('/api/admin/settings', {
        headers: { authorization: `Bearer ${token}` },
        data: { primaryColor },
      });
      expect(saved.status()).toBe(200);
    };
    /** The colours the logo a page shows is painted in (its SVG's fills), white aside. */
    const logoFills = async (page: Page, logo: Locator) => {
      const source = await logo.getAttribute('src');
      const svg = await (await page.request.get(source ?? '')).text();
      const fills = [...svg.matchAll(/fill="(#[0-9a-f]{3,6})"/g)].map((m) => m[1]);
      return [...new Set(fills)].filter((fill) => !['#fff', '#ffffff'].includes(fill ?? ''));
    };
    await setColor('#4c6ef5');
    try {
      // Someone on the join page, and an attendee (another browser: joining leaves the join page).
      const visitorContext = await browser.newContext({ baseURL });
      const visitor = await visitorContext.newPage();
      const context = await browser.newContext({ baseURL });
      await visitor.goto('/');
      const joinLogo = visitor.getByRole('main').locator('img').first();
      await expect(joinLogo).toBeVisible();
      await visitor.getByRole('textbox', { name: 'Username' }).click();
      expect(await logoFills(visitor, joinLogo)).toEqual(['#4c6ef5']);
      const attendee = await context.newPage();
      await join(attendee, 'colour-watcher');
      const headerLogo = attendee.getByRole('banner').locator('img').first();
      await expect(headerLogo).toBeVisible();
      expect(await logoFills(attendee, headerLogo)).toEqual(['#4c6ef5']);

      await setColor('#e8590c');
      // The open pages follow without a reload: the header, the join page, the page's icon.
      await expect(headerLogo).toHaveAttribute('src', '/logo/e8590c.svg', { timeout: 10_000 });
      await expect(joinLogo).toHaveAttribute('src', '/logo/e8590c.svg', { timeout: 10_000 });
      expect(await logoFills(attendee, headerLogo)).toEqual(['#e8590c']);
      await expect(attendee.locator('link[rel="icon"]')).toHaveAttribute(
        'href',
        '/logo/e8590c.svg',
      );
      // A new page has it from the start, and the logo is drawn (not a broken image).
      await attendee.reload();
      await expect(headerLogo).toHaveAttribute('src', '/logo/e8590c.svg');
      expect(
        await headerLogo.evaluate((img: HTMLImageElement) => img.naturalWidth),
      ).toBeGreaterThan(0);
      await attendee.screenshot({ path: '/tmp/confab-logo-orange.png' });
      await visitor.screenshot({ path: '/tmp/confab-logo-orange-join.png' });
      await context.close();
      await visitorContext.close();
    } finally {
      await setColor('#4c6ef5');
    }
  });

  test('a logo uploaded in Settings shows in the headers, and can be removed', async ({
    browser,
    baseURL,
    page,
  }) => {
    const attendeeContext = await browser.newContext({ baseURL });
    const attendee = await attendeeContext.newPage();
    await join(attendee, 'logo-watcher');
    const headerLogo = attendee.getByRole('banner').locator('img').first();
    await expect(headerLogo).toHaveAttribute('src', /^\/logo\/[0-9a-f]{6}\.svg$/);

    await logInAsAdmin(page, ADMIN_PASSWORD, 'settings');
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Upload logo' }).click();
    await (
      await chooser
    ).setFiles({
      name: 'logo.png',
      mimeType: 'image/png',
      buffer: await png('#f08c00', 300, 300),
    });
    await expect(page.getByText('Logo saved.')).toBeVisible();
    await expect(page.getByRole('img', { name: 'The event’s logo' })).toHaveAttribute(
      'src',
      /^\/media\/settings\/logo-.+\.webp$/,
    );
    await expect(headerLogo).toHaveAttribute('src', /^\/media\/settings\/logo-.+\.webp$/, {
      timeout: 10_000,
    });

    await page.getByRole('button', { name: 'Remove logo' }).click();
    await expect(page.getByText('Logo removed.')).toBeVisible();
    await expect(headerLogo).toHaveAttribute('src', /^\/logo\/[0-9a-f]{6}\.svg$/, {
      timeout: 10_000,
    });
    await attendeeContext.close();
  });

  test('the overview shows live figures and charts; the figures download as CSV', async ({
    page,
    request,
  }) => {
    const speaker = await createSpeaker(request, uniqueName('Radia'));
    await askViaApi(request, speaker, 'How do bridges learn?', 'ann');
    await logInAsAdmin(page, ADMIN_PASSWORD, 'overview');
    await expect(page.getByRole('tab', { name: 'Overview' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    const figure = (label: string) =>
      page.getByText(label, { exact: true }).locator('xpath=following-sibling::*[1]');
    await expect(figure('Speakers')).not.toHaveText('0');
    const before = Number(await figure('Questions').textContent());
    await askViaApi(request, speaker, 'And tunnels?', 'ann');
    // Polled: the figure moves without a reload.
    await expect(figure('Questions')).toHaveText(String(before + 1), { timeout: 15_000 });
    await expect(page.getByText('Questions and votes per speaker')).toBeVisible();
    await expect(page.locator('.recharts-surface').first()).toBeVisible();

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Figures CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('stats.csv');
    const text = await (await file.createReadStream()).toArray();
    expect(Buffer.concat(text).toString()).toContain(`speaker,${speaker.name},2,0,`);
  });

  test('the login says what the console is for', async ({ page }) => {
    await page.goto('/borderlessadmin');
    await expect(page.getByRole('heading', { name: 'Admin Login' })).toBeVisible();
    await expect(page.getByText('review and remove shared memories')).toHaveCount(0);
    await expect(
      page.getByText(
        'Organisers only: the figures, memories, questions, speakers and settings of the event.',
      ),
    ).toBeVisible();
  });

  test('"New secret" asks first, saying the old link stops working', async ({ page, request }) => {
    const response = await request.post('/api/speakersadd', {
      multipart: {
        name: uniqueName('Karen'),
        stack: 'Compilers',
        bio: 'Writes compilers.',
        picture: { name: 'me.png', mimeType: 'image/png', buffer: await portraitPng() },
      },
    });
    const { speaker, secret } = (await response.json()) as {
      speaker: { name: string; username: string };
      secret: string;
    };
    const login = (value: string) =>
      request.post('/api/speakers/login', { data: { username: speaker.username, secret: value } });
    await logInAsAdmin(page, ADMIN_PASSWORD, 'speakers');
    const card = page.getByRole('article', { name: speaker.name });
    await card.getByRole('button', { name: 'New secret' }).click();
    const confirm = page.getByRole('dialog', { name: 'Replace the sign-in link?' });
    await expect(confirm).toContainText('stops working');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    // Nothing was replaced: the old link still signs in.
    expect((await login(secret)).status()).toBe(200);

    await card.getByRole('button', { name: 'New secret' }).click();
    await confirm.getByRole('button', { name: 'Replace the link' }).click();
    const issued = page.getByRole('dialog', { name: 'New sign-in link' });
    await expect(issued.getByRole('textbox', { name: 'New sign-in link' })).toHaveValue(
      new RegExp(speaker.username),
    );
    expect((await login(secret)).status()).toBe(401);
  });

  test('the Questions tab shows answered and pinned questions, and filters by them', async ({
    page,
    request,
  }) => {
    const signUp = await request.post('/api/speakersadd', {
      multipart: {
        name: uniqueName('Frances'),
        stack: 'Compilers',
        bio: 'Writes compilers.',
        picture: { name: 'me.png', mimeType: 'image/png', buffer: await portraitPng() },
      },
    });
    const { speaker, secret } = (await signUp.json()) as {
      speaker: { _id: string; name: string; username: string };
      secret: string;
    };
    const token = (
      (await (
        await request.post('/api/speakers/login', {
          data: { username: speaker.username, secret },
        })
      ).json()) as { token: string }
    ).token;
    const marker = `flagmark${Date.now()}`;
    const ids: Record<string, string> = {};
    for (const label of ['answered', 'pinned', 'open']) {
      const asked = await request.post('/questions', {
        data: {
          speakerId: speaker._id,
          question: `${label} ${marker}`,
          askerUsername: `asker-${label}`,
        },
      });
      ids[label] = ((await asked.json()) as { _id: string })._id;
    }
    for (const [label, patch] of [
      ['answered', { answered: true }],
      ['pinned', { pinned: true }],
    ] as const) {
      const patched = await request.patch(`/api/questions/${ids[label] ?? ''}`, {
        data: patch,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(patched.status()).toBe(200);
    }
    await logInAsAdmin(page, ADMIN_PASSWORD, 'questions');
    await page.getByRole('searchbox', { name: 'Search questions' }).fill(marker);
    const feed = page.getByRole('feed', { name: 'Questions for moderation' });
    const row = (label: string) =>
      feed.getByRole('article', { name: `Question from asker-${label}` });
    await expect(row('answered')).toContainText('Answered');
    await expect(row('pinned')).toContainText('Pinned');
    await expect(row('open')).not.toContainText('Answered');
    await expect(row('open')).not.toContainText('Pinned');

    const flags = page.getByRole('radiogroup', { name: 'Answered or pinned' });
    await flags.getByText('Answered', { exact: true }).click();
    await expect(row('pinned')).toHaveCount(0);
    await expect(row('answered')).toBeVisible();
    await flags.getByText('Pinned', { exact: true }).click();
    await expect(row('answered')).toHaveCount(0);
    await expect(row('pinned')).toBeVisible();
  });

  test('the console on a desktop and on a phone', async ({ page, request }, testInfo) => {
    // Its own figures, so that the charts are drawn whichever tests ran before it.
    const speaker = await createSpeaker(request, uniqueName('Barbara'));
    await askViaApi(request, speaker, 'What does a phone see of the console?', 'ann');
    await page.setViewportSize({ width: 1280, height: 800 });
    await logInAsAdmin(page, ADMIN_PASSWORD, 'overview');
    await expect(page.locator('.recharts-surface').first()).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('console-desktop.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoHorizontalScroll(page);
    await page.screenshot({ path: testInfo.outputPath('console-phone.png'), fullPage: true });
    await page.getByRole('tab', { name: 'Settings' }).click();
    await expect(page.getByRole('textbox', { name: 'Event name' })).toBeVisible();
    await expectNoHorizontalScroll(page);
    await page.screenshot({
      path: testInfo.outputPath('console-settings-phone.png'),
      fullPage: true,
    });
  });
});

test.describe('finding one’s way', () => {
  test('the join page and /home lead speakers to sign up or log in; the header names the attendee', async ({
    page,
  }) => {
    await page.goto('/');
    await page.getByRole('link', { name: 'Sign up as a speaker' }).click();
    await expect(page).toHaveURL(/\/Speakerform$/);
    await page.goto('/');
    await page.getByRole('link', { name: 'Log in as a speaker' }).click();
    await expect(page).toHaveURL(/\/SpeakerLogin$/);

    await join(page, 'wayfinder');
    await expect(page.getByRole('banner').getByText('wayfinder')).toBeVisible();
    await expect(page.getByRole('banner')).toContainText('Signed in as wayfinder');
    await expect(page.getByRole('link', { name: 'Sign up as a speaker' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Q&A Room' }).first()).toBeAttached();
  });

  test('a visitor who has not joined is brought back to the memories after joining', async ({
    page,
  }) => {
    await page.goto('/memories');
    await expect(page).toHaveURL(/\/\?next=%2Fmemories$/);
    await page.getByLabel('Username').fill('returning');
    await page.getByRole('button', { name: 'Join Now' }).click();
    await expect(page).toHaveURL(/\/memories$/);
    // Only paths of this site are followed.
    await page.evaluate(() => localStorage.clear());
    await page.goto('/?next=//evil.example/x');
    await page.getByLabel('Username').fill('careful');
    await page.getByRole('button', { name: 'Join Now' }).click();
    await expect(page).toHaveURL(/\/home$/);
  });

  test('on a 360 px phone, a toast never covers a dialog’s close button and its buttons line up', async ({
    page,
    request,
  }) => {
    const speaker = await createSpeaker(request, uniqueName('Barbara'));
    await page.setViewportSize({ width: 360, height: 740 });
    await join(page, 'phone-user');
    await page.getByRole('button', { name: 'ASK A QUESTION' }).click();
    const dialog = page.getByRole('dialog', { name: 'Ask a Question' });
    await dialog.getByPlaceholder('Type your question here…').fill('Does this fit?');
    await dialog.getByLabel('Speaker').selectOption({ label: speaker.name });
    // The server fails (a 503 would be queued and sent later): the error toast shows while the
    // dialog stays open.
    await page.route('**/questions', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ error: 'Internal server error' }),
      }),
    );
    await dialog.getByRole('button', { name: 'Submit Question' }).click();
    const toast = page.getByRole('alert').filter({ hasText: /submit/i });
    await expect(toast).toBeVisible();
    await expect(dialog).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('toast-over-dialog-phone.png') });
    // The dialog's close button (its cancel button is called "Close" too, and comes last).
    const closeBox = await dialog.getByRole('button', { name: 'Close' }).first().boundingBox();
    const toastBox = await toast.boundingBox();
    expect(closeBox && toastBox).toBeTruthy();
    if (closeBox && toastBox) {
      const apart =
        toastBox.y >= closeBox.y + closeBox.height ||
        toastBox.y + toastBox.height <= closeBox.y ||
        toastBox.x >= closeBox.x + closeBox.width ||
        toastBox.x + toastBox.width <= closeBox.x;
      expect(apart).toBe(true);
    }
    // Its buttons: full width, one under the other, none cut.
    const buttons = [
      dialog.getByRole('button', { name: 'Submit Question' }),
      dialog.getByRole('button', { name: 'Close' }).last(),
    ];
    for (const button of buttons) {
      const box = await button.boundingBox();
      expect(box?.width ?? 0).toBeGreaterThan(280);
    }
    await expectNoHorizontalScroll(page);
  });
});
