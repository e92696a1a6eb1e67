import type { Page } from '@playwright/test';
import { consoleProblems, expect, join, test, untilHydrated } from './fixtures.ts';
import { askViaApi, createSpeaker, uniqueName } from './qa-helpers.ts';
import { seedMemoriesInto } from './seed.ts';

/**
 * Holds the page's code back until `release` is called: what shows until then is the server's
 * HTML alone.
 */
async function holdCode(page: Page): Promise<{ release: () => void }> {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/assets/*.js', async (route) => {
    await held;
    await route.continue();
  });
  return { release };
}

test.describe('join', () => {
  test('an empty or blank username shows the spec error and stays on the page', async ({
    page,
  }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Join Now' }).click();
    await expect(page.getByText('Enter your username!!')).toBeVisible();
    await page.getByLabel('Username').fill('    ');
    await page.getByRole('button', { name: 'Join Now' }).click();
    await expect(page.getByText('Enter your username!!')).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
  });

  test('a blank name sent before the page had its code shows the error on the page itself', async ({
    page,
  }) => {
    // What a tap on "Join Now" sends when the script has not arrived yet: the form, natively.
    for (const sent of ['', '%20%20']) {
      await page.goto(`/?username=${sent}`);
      await expect(page.getByText('Enter your username!!')).toBeVisible();
      await expect(page).toHaveURL(/\/$/);
    }
  });

  test('joining stores the username, shows home, and survives a reload', async ({ page }) => {
    await join(page, '  ada  ');
    expect(await page.evaluate(() => window.localStorage.getItem('username'))).toBe('ada');
    await expect(page.getByText('Connect. Share. Engage.')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Join the Fun at Confab!' })).toBeVisible();
    await page.reload();
    await expect(page).toHaveURL(/\/home$/);
    await expect(page.getByRole('heading', { name: 'Join the Fun at Confab!' })).toBeVisible();
    // A joined attendee who opens the landing page again goes straight home.
    await page.goto('/');
    await expect(page).toHaveURL(/\/home$/);
  });

  test('/home without a username lands on the join page', async ({ page }) => {
    await page.goto('/home');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('button', { name: 'Join Now' })).toBeVisible();
  });

  test('the header links home and to the Q&A room; Logout clears the username', async ({
    page,
  }) => {
    await join(page, 'grace');
    await expect(page.getByRole('link', { name: 'Confab home' })).toHaveAttribute('href', '/home');
    await expect(page.getByRole('link', { name: 'Back' })).toHaveAttribute('href', '/home');
    await page.getByRole('link', { name: 'Q&A room' }).click();
    await expect(page).toHaveURL(/\/speakerscard$/);
    await page.goto('/home');
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/$/);
    expect(await page.evaluate(() => window.localStorage.getItem('username'))).toBeNull();
    await page.goto('/home');
    await expect(page).toHaveURL(/\/$/);
  });

  test('on a phone the "Q&A Room" link is shown', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await join(page, 'linus');
    const link = page.getByRole('link', { name: 'Q&A Room', exact: true });
    await expect(link).toBeVisible();
    await link.click();
    await expect(page).toHaveURL(/\/speakerscard$/);
    // Nothing scrolls sideways at 360 px.
    await page.goto('/home');
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
  });
});

test.describe('the header on a phone', () => {
  test('at 390 px the username shows whole where there is room, and a long one never pushes Logout off', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await join(page, 'ada lovelace');
    const name = page.getByTitle('Signed in as ada lovelace');
    await expect(name).toBeVisible();
    // Not cut: all of it fits in the room it is given.
    expect(await name.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    await expect(name).toHaveText('Signed in as ada lovelace');
    await page.screenshot({
      path: '/tmp/media-header-phone.png',
      clip: { x: 0, y: 0, width: 390, height: 80 },
    });

    await page.getByRole('button', { name: 'Logout' }).click();
    const long = 'Augusta Ada King, Countess of Lovelace';
    await join(page, long);
    await expect(page.getByTitle(`Signed in as ${long}`)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Logout' })).toBeInViewport({ ratio: 1 });
    await expect(page.getByRole('link', { name: 'Q&A Room', exact: true })).toBeInViewport({
      ratio: 1,
    });
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    await page.screenshot({
      path: '/tmp/media-header-long-phone.png',
      clip: { x: 0, y: 0, width: 390, height: 80 },
    });
  });
});

test.describe('colour mode', () => {
  test('defaults to light, toggles to dark, and is remembered after a reload', async ({ page }) => {
    await join(page, 'margaret');
    const html = page.locator('html');
    await expect(html).toHaveAttribute('data-mantine-color-scheme', 'light');
    await page.getByRole('button', { name: 'Switch to dark mode' }).click();
    await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await page.reload();
    await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await expect(page.getByRole('button', { name: 'Switch to light mode' })).toBeVisible();
    expect(await page.evaluate(() => document.cookie)).toContain('confab-color-scheme=dark');
    await page.getByRole('button', { name: 'Switch to light mode' }).click();
    await expect(html).toHaveAttribute('data-mantine-color-scheme', 'light');
  });

  test('the join page has the toggle too and never runs inline script', async ({ page }) => {
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.goto('/');
    await untilHydrated(page);
    await page.getByRole('button', { name: 'Switch to dark mode' }).click();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    expect(violations).toEqual([]);
  });
});

test.describe('page shell', () => {
  for (const width of [390, 800]) {
    test(`at ${width} px the header shows before any code runs, where the app then draws it`, async ({
      browser,
      server,
    }) => {
      const viewport = { width, height: 800 };
      const place = async (page: Page) => {
        const banner = page.getByRole('banner');
        const boxes = await Promise.all(
          [
            banner,
            banner.getByRole('link', { name: 'Back' }),
            banner.getByRole('link', { name: 'Confab home' }),
          ].map((element) => element.boundingBox()),
        );
        return boxes.map(
          (box) =>
            box && {
              x: Math.round(box.x),
              y: Math.round(box.y),
              width: Math.round(box.width),
              height: Math.round(box.height),
            },
        );
      };

      // Without scripts the server's shell is all there is.
      const bare = await browser.newContext({
        baseURL: server.url,
        viewport,
        javaScriptEnabled: false,
      });
      const shellPage = await bare.newPage();
      await shellPage.goto('/home');
      const shellName = shellPage.getByRole('banner').getByText('Confab', { exact: true });
      if (width >= 576) await expect(shellName).toBeVisible();
      else await expect(shellName).toBeHidden();
      const shell = await place(shellPage);
      expect(shell.every(Boolean)).toBe(true);
      // The join page has no header, so no shell either.
      await shellPage.goto('/');
      await expect(shellPage.getByRole('banner')).toHaveCount(0);
      await bare.close();

      const context = await browser.newContext({ baseURL: server.url, viewport });
      const page = await context.newPage();
      await join(page, 'ada');
      await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
      expect(await place(page)).toEqual(shell);
      const name = page.getByRole('banner').getByText('Confab', { exact: true });
      if (width >= 576) await expect(name).toBeVisible();
      else await expect(name).toBeHidden();
      await context.close();
    });
  }
});

test.describe('prerendered join page', () => {
  for (const scheme of ['light', 'dark'] as const) {
    test(`is painted before its code and joins once hydrated (${scheme})`, async ({
      browser,
      server,
    }) => {
      const context = await browser.newContext({ baseURL: server.url });
      if (scheme === 'dark') {
        // As the app keeps the choice: in local storage, and in a cookie for the server.
        await context.addCookies([{ name: 'confab-color-scheme', value: 'dark', url: server.url }]);
        await context.addInitScript(() => localStorage.setItem('confab-color-scheme', 'dark'));
      }
      const page = await context.newPage();
      const problems = consoleProblems(page);

      // The code is held back: what shows is the server's HTML alone.
      const { release } = await holdCode(page);
      await page.goto('/', { waitUntil: 'commit' });
      await expect(page.getByRole('heading', { name: 'Join the Fun at Confab!' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Join Now' })).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
      const toggle = scheme === 'dark' ? 'Switch to light mode' : 'Switch to dark mode';
      await expect(page.getByRole('button', { name: toggle })).toBeVisible();
      const before = await page.getByRole('button', { name: 'Join Now' }).boundingBox();

      release();
      // React has taken the page over, and nothing moved.
      await untilHydrated(page);
      expect(await page.getByRole('button', { name: 'Join Now' }).boundingBox()).toEqual(before);
      // The empty name is refused by the app, not sent anywhere.
      await page.getByRole('button', { name: 'Join Now' }).click();
      await expect(page.getByText('Enter your username!!')).toBeVisible();
      await expect(page).toHaveURL(/\/$/);
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
      await page.getByLabel('Username').fill('hedy');
      await page.getByRole('button', { name: 'Join Now' }).click();
      await expect(page).toHaveURL(/\/home$/);
      expect(problems).toEqual([]);
      await context.close();
    });
  }
});

test('a name typed into the prerendered join page before its code arrives is the one joined', async ({
  page,
}) => {
  const { release } = await holdCode(page);
  await page.goto('/', { waitUntil: 'commit' });
  await page.getByLabel('Username').fill('early_bird');
  release();
  await untilHydrated(page);
  await page.getByRole('button', { name: 'Join Now' }).click();
  await expect(page).toHaveURL(/\/home$/);
  expect(await page.evaluate(() => localStorage.getItem('username'))).toBe('early_bird');
});

test('"Join Now" tapped on the prerendered page before its code arrives still joins', async ({
  page,
}) => {
  const { release } = await holdCode(page);
  await page.goto('/', { waitUntil: 'commit' });
  await page.getByLabel('Username').fill('early_tap');
  // The browser sends the form itself.
  await page.getByRole('button', { name: 'Join Now' }).click();
  await expect(page).toHaveURL(/\/\?username=early_tap$/);
  release();
  await expect(page).toHaveURL(/\/home$/);
  expect(await page.evaluate(() => localStorage.getItem('username'))).toBe('early_tap');
  // The address the browser made is replaced, not left in the history.
  await page.goBack();
  await expect(page).not.toHaveURL(/username=/);
});

test.describe('prerendered shells of /home and the Q&A room', () => {
  test('paint the header and the layout before any code, then the screen takes over without a shift', async ({
    browser,
    server,
    request,
  }) => {
    const speaker = await createSpeaker(request, uniqueName('Shell'));
    await askViaApi(request, speaker, 'Does the room paint before the code?', 'grace');
    const context = await browser.newContext({ baseURL: server.url });
    await context.addInitScript(() => localStorage.setItem('username', 'grace'));
    const page = await context.newPage();
    const problems = consoleProblems(page);
    const home = await holdCode(page);

    await page.goto('/home', { waitUntil: 'commit' });
    const title = page.getByRole('heading', { name: 'Join the Fun at Confab!' });
    await expect(title).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Memories' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Q&A Room' })).toBeVisible();
    // The attendee's own parts come with the code.
    await expect(page.getByRole('button', { name: 'Logout' })).toHaveCount(0);
    const before = await title.boundingBox();
    home.release();
    await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
    await expect(page.getByText('No media available')).toBeVisible();
    expect(await title.boundingBox()).toEqual(before);

    const fresh = await context.newPage();
    const room = await holdCode(fresh);
    await fresh.goto('/speakerscard', { waitUntil: 'commit' });
    await expect(fresh.getByText('Select Speakers')).toBeVisible();
    await expect(fresh.getByRole('link', { name: 'Q&A Room' })).toBeVisible();
    room.release();
    await fresh.getByText(speaker.name).click();
    await expect(fresh.getByText('Does the room paint before the code?')).toBeVisible();
    expect(problems).toEqual([]);
    await context.close();
  });
});

test.describe('/home and the Q&A room rendered with their data', () => {
  test('show the newest tiles and questions before any code, and keep them in place once it runs', async ({
    browser,
    server,
    request,
  }) => {
    const caption = `Rendered before the code ${Date.now()}`;
    await seedMemoriesInto(server, [{ username: 'rendered', text: caption, color: '#e8590c' }]);
    const speaker = await createSpeaker(request, uniqueName('Rendered'));
    for (let n = 1; n <= 15; n += 1) {
      await askViaApi(request, speaker, `Rendered question number ${n}?`, `ada${n}`);
    }
    // A phone of grace's. Each screen gets a browser of its own: the first page's service worker
    // would hand the second one its code.
    const phone = async () => {
      const context = await browser.newContext({
        baseURL: server.url,
        viewport: { width: 390, height: 844 },
      });
      await context.addInitScript(() => localStorage.setItem('username', 'grace'));
      return context;
    };
    const context = await phone();
    const page = await context.newPage();
    const problems = consoleProblems(page);
    const home = await holdCode(page);
    await page.goto('/home', { waitUntil: 'commit' });
    const tile = page.getByRole('article').filter({ hasText: caption });
    await expect(tile).toBeVisible();
    await expect(tile.getByRole('img', { name: /^Photo by rendered/ })).toHaveJSProperty(
      'complete',
      true,
    );
    const before = await tile.boundingBox();
    // The attendee's own parts come with the code.
    await expect(page.getByRole('button', { name: 'Logout' })).toHaveCount(0);
    home.release();
    await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
    await expect(page.locator('#root[data-shell]')).toHaveCount(0);
    await expect(tile).toBeVisible();
    expect(await tile.boundingBox()).toEqual(before);
    // Live from here on: a new memory arrives without a reload.
    const newer = `Posted after the first paint ${Date.now()}`;
    await seedMemoriesInto(server, [{ username: 'rendered', text: newer }]);
    await expect(page.getByRole('article').filter({ hasText: newer })).toBeVisible();

    const roomContext = await phone();
    const room = await roomContext.newPage();
    const roomProblems = consoleProblems(room);
    const held = await holdCode(room);
    await room.goto(`/speakerscard?speaker=${speaker._id}`, { waitUntil: 'commit' });
    // The log opens at its newest question, as a chat, with no script.
    const newest = room.getByText('Rendered question number 15?');
    await expect(newest).toBeInViewport();
    await expect(room.getByText('Rendered question number 1?')).not.toBeInViewport();
    const at = await newest.boundingBox();
    held.release();
    await expect(room.locator('#root[data-shell]')).toHaveCount(0);
    await expect(room.getByRole('button', { name: 'Ask', exact: true })).toBeVisible();
    await expect(newest).toBeInViewport();
    expect(await newest.boundingBox()).toEqual(at);
    // "Top" still starts at the top of the log.
    await room.getByText('Top', { exact: true }).click();
    await expect(room.getByText('Rendered question number 1?')).toBeInViewport();
    expect(problems).toEqual([]);
    expect(roomProblems).toEqual([]);
    await context.close();
    await roomContext.close();
  });
});
