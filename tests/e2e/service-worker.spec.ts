import { consoleProblems, expect, join, test } from './fixtures.ts';

test.describe('the service worker', () => {
  test('once it controls the page, no screen warns in the console', async ({ page }) => {
    const problems = consoleProblems(page);
    await join(page, 'offline-ready');
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, {
      timeout: 15_000,
    });

    // Each screen loaded again, now through the service worker, with the stylesheets its page
    // preloads.
    const screens: [string, RegExp | string][] = [
      ['/home', 'SHARE A MEMORY'],
      ['/memories', 'Memories'],
      ['/questions', 'Questions'],
      ['/speakerscard', 'Select a speaker to view the dashboard'],
    ];
    for (const [path, text] of screens) {
      await page.goto(path);
      await expect(page.getByText(text).first()).toBeVisible();
      await page.reload();
      await expect(page.getByText(text).first()).toBeVisible();
      // Chromium reports an unused preload a few seconds after the load.
      await page.waitForTimeout(3500);
      expect(
        await page.evaluate(() => navigator.serviceWorker.controller !== null),
        `${path} controlled`,
      ).toBe(true);
    }
    expect(problems).toEqual([]);
  });
});
