import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { type RunningServer, expect, join, startServer, test as base } from './fixtures.ts';
import { ADMIN_PASSWORD, adminCard, adminSearchBox, logInAsAdmin } from './admin-helpers.ts';
import { seedMemoriesInto } from './seed.ts';

/** Admin specs run against their own server, with a known admin password. */
const test = base.extend<object, { adminServer: RunningServer }>({
  adminServer: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startServer({ ADMIN_PASSWORD });
      await use(server);
      await server.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ adminServer }, use) => {
    await use(adminServer.url);
  },
});

/** A word no other test uses, so parallel tests sharing a server do not see each other. */
const unique = () => randomUUID().slice(0, 8);

/** The attendee's gallery tile of a memory, found as a person finds it. */
const attendeeTile = (page: Page, username: string) =>
  page.getByRole('button', { name: `Open memory by ${username}` });

test.describe('admin login', () => {
  test('both fields are required, and a wrong password shows the server error', async ({
    page,
  }) => {
    await page.goto('/borderlessadmin');
    await expect(page.getByRole('heading', { name: 'Admin Login' })).toBeVisible();
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByText('Username is required')).toBeVisible();
    await expect(page.getByText('Password is required')).toBeVisible();

    await logInAsAdmin(page, 'not the password');
    await expect(page.getByRole('alert')).toHaveText('Invalid username or password');
    await expect(page.getByRole('heading', { name: 'Admin Login' })).toBeVisible();
    await expect(adminSearchBox(page)).toHaveCount(0);
    expect(await page.evaluate(() => localStorage.getItem('adminToken'))).toBeNull();
  });

  test('a reload keeps the admin logged in; Logout returns to the form', async ({ page }) => {
    await logInAsAdmin(page);
    await expect(adminSearchBox(page)).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('adminToken'))).toMatch(/\./);

    await page.reload();
    await expect(adminSearchBox(page)).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Admin Login' })).toHaveCount(0);

    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page.getByRole('heading', { name: 'Admin Login' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('adminToken'))).toBeNull();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Admin Login' })).toBeVisible();
  });

  test('a stored token the server refuses is removed, with a message', async ({ page }) => {
    await page.goto('/borderlessadmin');
    // Wait for the screen, so the token is stored after it has read local storage.
    await expect(page.getByRole('heading', { name: 'Admin Login' })).toBeVisible();
    await page.evaluate(() => localStorage.setItem('adminToken', 'eyJ2IjoxfQ.forged'));
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Admin Login' })).toBeVisible();
    await expect(page.getByText('Your session has expired. Please log in again.')).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('adminToken'))).toBeNull();
  });

  test('when the session ends while moderating, the login form comes back', async ({ page }) => {
    await logInAsAdmin(page);
    await expect(adminSearchBox(page)).toBeVisible();
    // The server refuses the token from now on, as it does once the token has expired.
    await page.route('**/api/media?*', (route) =>
      route.fulfill({
        status: 401,
        contentType: 'application/json',
        body: JSON.stringify({ error: 'Your admin session has expired; log in again' }),
      }),
    );
    await expect(page.getByText('Your session has expired. Please log in again.')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Admin Login' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('adminToken'))).toBeNull();
  });
});

test.describe('moderation', () => {
  test('search, delete, and the memory vanishes for an attendee without a reload', async ({
    page,
    browser,
    adminServer,
    baseURL,
  }) => {
    const tag = unique();
    const [, target] = await seedMemoriesInto(adminServer, [
      { username: `ada-${tag}`, text: `Keynote selfie ${tag}`, color: '#e64980' },
      { username: `grace-${tag}`, text: `Compilers and coffee ${tag}`, color: '#12b886' },
      { username: `linus-${tag}`, text: `Demo clip ${tag}`, kind: 'video' },
    ]);
    if (!target) throw new Error('no seed');

    // An attendee has the gallery open in another browser.
    const attendeeContext = await browser.newContext({ baseURL });
    const attendee = await attendeeContext.newPage();
    await join(attendee, `fan-${tag}`);
    await expect(attendeeTile(attendee, `grace-${tag}`)).toBeVisible();
    // From here on the attendee's gallery cannot poll: only the socket can change it.
    await attendee.route('**/api/memory?**', (route) => route.abort());
    await attendee.route('**/api/memory', (route) => route.abort());

    await logInAsAdmin(page);
    await adminSearchBox(page).fill(tag);
    await expect(adminCard(page, `ada-${tag}`)).toBeVisible();
    await expect(adminCard(page, `grace-${tag}`)).toBeVisible();
    await expect(adminCard(page, `linus-${tag}`).locator('video')).toBeVisible();
    await expect(page.getByRole('article')).toHaveCount(3);

    // Server-side, case-insensitive search over usernames and captions.
    await adminSearchBox(page).fill(`COFFEE ${tag}`);
    await expect(page.getByRole('article')).toHaveCount(1);
    await expect(adminCard(page, `grace-${tag}`)).toBeVisible();
    await adminSearchBox(page).fill(`nobody-${tag}`);
    await expect(page.getByText(`No memories match “nobody-${tag}”.`)).toBeVisible();
    await adminSearchBox(page).fill(tag);
    await expect(page.getByRole('article')).toHaveCount(3);

    // Delete asks first; Cancel keeps the memory.
    await adminCard(page, `grace-${tag}`).getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this memory?' });
    await expect(dialog).toContainText(`grace-${tag}`);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(adminCard(page, `grace-${tag}`)).toBeVisible();

    await adminCard(page, `grace-${tag}`).getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(adminCard(page, `grace-${tag}`)).toHaveCount(0);
    await expect(page.getByText(`Deleted the memory by grace-${tag}.`)).toBeVisible();
    await expect(page.getByRole('article')).toHaveCount(2);

    // The tile leaves the attendee's open gallery at once, without a reload.
    await expect(attendeeTile(attendee, `grace-${tag}`)).toHaveCount(0);
    await expect(attendeeTile(attendee, `ada-${tag}`)).toBeVisible();
    await expect(attendee).toHaveURL(/\/home$/);

    // The log, under the grid, shows who deleted what.
    const log = page.getByRole('list', { name: 'Recent deletions' });
    await expect(log.getByRole('listitem').filter({ hasText: `grace-${tag}` })).toContainText(
      'admin deleted a memory by',
    );

    // It stays gone after a reload (the server deleted it, not just the screen).
    await page.reload();
    await adminSearchBox(page).fill(tag);
    await expect(page.getByRole('article')).toHaveCount(2);
    await expect(adminCard(page, `grace-${tag}`)).toHaveCount(0);
    await attendeeContext.close();
  });

  test('a failed deletion puts the memory back and says why', async ({ page, adminServer }) => {
    const tag = unique();
    await seedMemoriesInto(adminServer, [{ username: `kept-${tag}`, text: 'Still here' }]);
    await logInAsAdmin(page);
    await adminSearchBox(page).fill(tag);
    await expect(adminCard(page, `kept-${tag}`)).toBeVisible();

    await page.route('**/api/media/*', (route) =>
      route.request().method() === 'DELETE'
        ? route.fulfill({
            status: 503,
            contentType: 'application/json',
            body: JSON.stringify({ error: 'Service temporarily unavailable' }),
          })
        : route.fallback(),
    );
    await adminCard(page, `kept-${tag}`).getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('dialog', { name: 'Delete this memory?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await expect(page.getByText('Could not delete the memory')).toBeVisible();
    await expect(adminCard(page, `kept-${tag}`)).toBeVisible();
  });

  test('new memories appear without a reload, and a failed list says so', async ({
    page,
    adminServer,
  }) => {
    const tag = unique();
    await logInAsAdmin(page);
    await adminSearchBox(page).fill(tag);
    await expect(page.getByText(`No memories match “${tag}”.`)).toBeVisible();

    await seedMemoriesInto(adminServer, [{ username: `late-${tag}`, text: 'Just posted' }]);
    await expect(adminCard(page, `late-${tag}`)).toBeVisible();

    await page.route('**/api/media?*', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ error: 'Internal server error' }),
      }),
    );
    await expect(page.getByText('Error fetching memories')).toBeVisible();
  });

  test('"Load more" pages through many memories; only the rows in view are in the DOM', async ({
    page,
    adminServer,
  }) => {
    test.setTimeout(120_000);
    const tag = unique();
    const total = 200;
    const name = (n: number) => `bulk-${String(n).padStart(3, '0')}-${tag}`;
    await seedMemoriesInto(
      adminServer,
      Array.from({ length: total }, (_, i) => ({ username: name(i + 1), text: `Bulk ${i + 1}` })),
    );
    await logInAsAdmin(page);
    await adminSearchBox(page).fill(tag);
    await expect(page.getByText(`60+ memories matching “${tag}”`)).toBeVisible();
    for (const loaded of [120, 180]) {
      await page.getByRole('button', { name: 'Load more' }).click();
      await expect(page.getByText(`${loaded}+ memories matching “${tag}”`)).toBeVisible();
    }
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect(page.getByText(`${total} memories matching “${tag}”`)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);
    // Back at the top (the recent deletions under the grid keep its end near the last button).
    await page.evaluate(() => window.scrollTo(0, 0));
    expect(await page.getByRole('article').count()).toBeLessThan(total / 2);
    await expect(adminCard(page, name(1))).toHaveCount(0);

    // The oldest, at the very end, comes into the DOM when scrolled to and can be deleted there.
    await page.mouse.wheel(0, 100_000);
    await adminCard(page, name(1)).getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('dialog', { name: 'Delete this memory?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await expect(page.getByText(`Deleted the memory by ${name(1)}.`)).toBeVisible();
    await expect(adminCard(page, name(1))).toHaveCount(0);
    await expect(page.getByText(`${total - 1} memories matching “${tag}”`)).toBeVisible();
    await expect(adminCard(page, name(2))).toBeVisible();
  });

  test('on a phone the screen fits and every control is reachable', async ({
    page,
    adminServer,
  }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    const tag = unique();
    await seedMemoriesInto(adminServer, [
      { username: `phone-${tag}`, text: 'A caption long enough to wrap '.repeat(4) },
      { username: `phone2-${tag}`, text: 'Short' },
    ]);
    await logInAsAdmin(page);
    await adminSearchBox(page).fill(tag);
    await expect(page.getByRole('article')).toHaveCount(2);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    const button = await adminCard(page, `phone-${tag}`)
      .getByRole('button', { name: 'Delete' })
      .boundingBox();
    expect(button?.height ?? 0).toBeGreaterThanOrEqual(44);
  });
});
