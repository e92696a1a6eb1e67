import type { Page } from '@playwright/test';
import { ADMIN_PASSWORD, logInAsAdmin } from './admin-helpers.ts';
import { type RunningServer, expect, join, startServer, test as base } from './fixtures.ts';

/** Announcements are the event's: this spec sends them on a server of its own. */
const test = base.extend<object, { announceServer: RunningServer }>({
  announceServer: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startServer({ ADMIN_PASSWORD });
      await use(server);
      await server.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ announceServer }, use) => {
    await use(announceServer.url);
  },
});

/**
 * Resolves once the page's socket is connected (socket.io's connect answer): from then on the
 * announcements sent to everyone reach it. Attach before the page loads.
 */
function whenConnected(page: Page): Promise<void> {
  return new Promise((resolve) => {
    page.on('websocket', (socket) => {
      socket.on('framereceived', ({ payload }) => {
        if (String(payload).startsWith('40')) resolve();
      });
    });
  });
}

const banner = (page: Page) => page.getByRole('status').filter({ hasText: 'Announcement' });

test('the organiser announces; an attendee’s open screen shows it, dismisses it and finds it in the list', async ({
  browser,
  page,
}) => {
  const connected = whenConnected(page);
  await join(page, 'grace');
  await expect(page.getByRole('button', { name: 'Announcements (0)' })).toBeVisible();
  await connected;

  const console = await (await browser.newContext()).newPage();
  await logInAsAdmin(console, ADMIN_PASSWORD, 'announcements');
  await expect(console.getByRole('heading', { name: 'New announcement' })).toBeVisible();
  await console.getByRole('textbox', { name: 'Announcement' }).fill('Lunch is served in the foyer');
  await console.getByRole('button', { name: 'Announce' }).click();
  const sent = console.getByRole('region', { name: 'Sent today' });
  await expect(sent.getByText('Lunch is served in the foyer')).toBeVisible();
  await expect(sent.getByText('Everyone')).toBeVisible();
  await expect(console.getByRole('textbox', { name: 'Announcement' })).toHaveValue('');

  // The attendee's screen, open all along, shows it at once.
  await expect(banner(page)).toContainText('Lunch is served in the foyer');
  await page.getByRole('button', { name: 'Dismiss the announcement' }).click();
  await expect(banner(page)).toBeHidden();
  await page.getByRole('button', { name: 'Announcements (1)' }).click();
  const list = page.getByRole('dialog');
  await expect(list.getByRole('heading', { name: 'Today’s announcements' })).toBeVisible();
  await expect(list.getByRole('listitem')).toHaveText([/Lunch is served in the foyer/]);

  // A screen opened later lists it too, with no banner: it did not arrive while open.
  await page.goto('/memories');
  await expect(page.getByRole('button', { name: 'Announcements (1)' })).toBeVisible();
  await expect(banner(page)).toBeHidden();
  await console.context().close();
});

test('a notification opens the app on its announcement', async ({ page, request }) => {
  const login = await request.post('/api/admin/login', {
    data: { username: 'admin', password: ADMIN_PASSWORD },
  });
  const { token } = (await login.json()) as { token: string };
  const sent = await request.post('/api/admin/announcements', {
    headers: { authorization: `Bearer ${token}` },
    data: { text: 'Keynote moved to Hall B' },
  });
  expect(sent.status()).toBe(201);
  const { _id } = (await sent.json()) as { _id: string };
  await join(page, 'ada');
  await page.goto(`/home?announcement=${_id}`);
  await expect(banner(page)).toContainText('Keynote moved to Hall B');
});

test('the service worker shows a pushed announcement as a notification', async ({
  context,
  page,
  baseURL,
}) => {
  await join(page, 'linus');
  // Offered once joined, never asked by itself.
  await expect(
    page.getByRole('heading', { name: 'Get announcements on this phone' }),
  ).toBeVisible();

  const cdp = await context.newCDPSession(page);
  const registered = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const found = registrations.find((r) => !r.isDeleted);
      if (found) resolve(found.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  const registrationId = await registered;
  // The browser of the tests (a headless build) grants no notification permission whatever the
  // context allows, so `showNotification` is recorded in the worker instead of drawn.
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  await worker.evaluate(() => {
    const scope = self as unknown as {
      shown: unknown[];
      registration: { showNotification: (title: string, options: unknown) => Promise<void> };
    };
    scope.shown = [];
    scope.registration.showNotification = (title, options) => {
      scope.shown.push({ title, options });
      return Promise.resolve();
    };
  });
  const payload = {
    title: 'Annonce · Confab',
    lang: 'fr',
    body: 'Doors open in 5 minutes',
    url: '/home?announcement=0190a000-0000-7000-8000-000000000001',
    announcementId: '0190a000-0000-7000-8000-000000000001',
  };
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin: new URL(baseURL ?? '').origin,
    registrationId,
    data: JSON.stringify(payload),
  });
  await expect
    .poll(() => worker.evaluate(() => (self as unknown as { shown: unknown[] }).shown), {
      timeout: 10_000,
    })
    .toEqual([
      {
        // The title in the subscriber's language, the organiser's text in its own direction.
        title: 'Annonce · Confab',
        options: {
          body: 'Doors open in 5 minutes',
          lang: 'fr',
          dir: 'auto',
          icon: '/icons/icon-192.png',
          tag: payload.url,
          data: { url: payload.url },
        },
      },
    ]);
});

test('the wall shows an announcement over the photos, as a projector does', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  const connected = whenConnected(page);
  await page.goto('/wall');
  const login = await request.post('/api/admin/login', {
    data: { username: 'admin', password: ADMIN_PASSWORD },
  });
  const { token } = (await login.json()) as { token: string };
  await connected;
  await request.post('/api/admin/announcements', {
    headers: { authorization: `Bearer ${token}` },
    data: { text: 'The closing keynote starts in 10 minutes in the Main Hall' },
  });
  await expect(banner(page)).toContainText('The closing keynote starts in 10 minutes');
});
