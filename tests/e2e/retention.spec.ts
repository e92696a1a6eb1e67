import { type RunningServer, expect, startServer, test as base } from './fixtures.ts';
import { ADMIN_PASSWORD, logInAsAdmin } from './admin-helpers.ts';
import { png } from './memory-helpers.ts';

/** These specs change the settings and purge everything: a server of their own. */
const test = base.extend<object, { retentionServer: RunningServer }>({
  retentionServer: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startServer({ ADMIN_PASSWORD });
      await use(server);
      await server.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ retentionServer }, use) => {
    await use(retentionServer.url);
  },
});

const EVENT = 'PrivConf 2027';
const NOTICE = 'Run by the PrivConf team.\nWrite to privacy@privconf.example to ask.';
const KEPT = 'Your name, photos and questions are kept until 12 March 2027, then deleted.';

test.describe.configure({ mode: 'serial' });

test.describe('privacy notice, retention and purge', () => {
  test.beforeAll(async ({ request }) => {
    const login = await request.post('/api/admin/login', {
      data: { username: 'admin', password: ADMIN_PASSWORD },
    });
    const { token } = (await login.json()) as { token: string };
    const saved = await request.put('/api/admin/settings', {
      headers: { authorization: `Bearer ${token}` },
      data: { eventName: EVENT, privacyNotice: NOTICE, retentionUntil: '2027-03-12' },
    });
    expect(saved.status()).toBe(200);
  });

  test('the join page says what is kept until when, in its first paint, and links the notice', async ({
    page,
    request,
  }) => {
    // In the page as served, before any script runs.
    expect(await (await request.get('/')).text()).toContain(KEPT);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    await expect(page.getByText(KEPT)).toBeVisible();
    await page.getByRole('link', { name: 'Privacy notice' }).click();
    await expect(page).toHaveURL(/\/privacy$/);
    await expect(page.getByRole('heading', { name: 'Privacy notice' })).toBeVisible();
    await expect(page.getByText('Run by the PrivConf team.')).toBeVisible();
    await expect(page.getByText('Write to privacy@privconf.example to ask.')).toBeVisible();
    await expect(page.getByText(KEPT)).toBeVisible();
  });

  test('"Purge event data" works only on the exact name and says what it removed', async ({
    page,
    request,
  }) => {
    const joined = await request.post('/api/attendees', { data: { username: 'ada' } });
    const { token } = (await joined.json()) as { token: string };
    const posted = await request.post('/api/memories', {
      headers: { authorization: `Bearer ${token}` },
      multipart: {
        caption: 'Before the purge',
        username: 'ada',
        files: { name: 'a.png', mimeType: 'image/png', buffer: await png('#2f9e44') },
      },
    });
    expect(posted.status()).toBe(201);

    await logInAsAdmin(page, ADMIN_PASSWORD, 'settings');
    await expect(page.getByRole('heading', { name: 'Privacy' })).toBeVisible();
    await expect(page.getByLabel('Privacy notice')).toHaveValue(NOTICE);
    await page.getByRole('button', { name: 'Purge event data' }).click();
    const dialog = page.getByRole('dialog', { name: 'Purge event data?' });
    const confirm = dialog.getByRole('button', { name: 'Purge event data' });
    const name = dialog.getByLabel(`Type the event’s name, ${EVENT}, to confirm`);
    await expect(confirm).toBeDisabled();
    await name.fill('privconf 2027');
    await expect(confirm).toBeDisabled();
    await name.fill(EVENT);
    await expect(confirm).toBeEnabled();
    await confirm.click();
    const result = page.getByRole('status').filter({ hasText: 'Event data purged' });
    await expect(result).toBeVisible();
    await expect(result.getByText('1 attendee', { exact: true })).toBeVisible();
    await expect(result.getByText('1 memory', { exact: true })).toBeVisible();
    // The dialog's form is not the settings' form: nothing else was saved.
    await expect(page.getByText(/Settings saved/)).toHaveCount(0);
    await expect(dialog).toBeHidden();

    const gallery = await request.get('/api/memory');
    expect(await gallery.json()).toEqual([]);
  });
});
