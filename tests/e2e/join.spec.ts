import type { Page } from '@playwright/test';
import { expect, join, test } from './fixtures.ts';

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
