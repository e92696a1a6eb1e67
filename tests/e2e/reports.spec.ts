import { type RunningServer, expect, join, startServer, test as base } from './fixtures.ts';
import { ADMIN_PASSWORD, adminCard, logInAsAdmin } from './admin-helpers.ts';

const CAPTION = 'Group photo at the coffee stand';

/** A server of its own holding one memory to report, with the admin's password set. */
const test = base.extend<object, { reportsServer: RunningServer }>({
  reportsServer: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startServer(
        { ADMIN_PASSWORD },
        { memories: [{ username: 'pat', text: CAPTION, color: '#e8590c' }] },
      );
      await use(server);
      await server.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ reportsServer }, use) => {
    await use(reportsServer.url);
  },
});

test('a phone reports a photo; the console counts it and removes it in one tap', async ({
  browser,
  page,
  reportsServer,
}) => {
  const phone = await browser.newContext({
    baseURL: reportsServer.url,
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
  });
  try {
    const attendee = await phone.newPage();
    await join(attendee, 'ada');
    await attendee.getByRole('button', { name: 'Open memory by pat' }).click();
    const viewer = attendee.getByRole('dialog', { name: 'Download Memory' });
    await viewer.getByRole('button', { name: 'Report' }).click();

    const dialog = attendee.getByRole('dialog', { name: 'Report this memory' });
    const send = dialog.getByRole('button', { name: 'Send report' });
    await expect(send).toBeDisabled();
    await dialog.getByRole('radio', { name: 'This is me and I did not agree' }).check();
    await dialog
      .getByRole('textbox', { name: 'Anything to add (optional)' })
      .fill('Please take it down');
    await send.click();
    await expect(attendee.getByText('Thanks, the organisers will look at it')).toBeVisible();
    await expect(dialog).toBeHidden();

    await logInAsAdmin(page, ADMIN_PASSWORD, 'reports');
    await expect(page.getByRole('tab', { name: /Reports/ }).getByLabel('1 reported')).toBeVisible();
    const card = adminCard(page, 'pat');
    await expect(card.getByText('Reported by 1 person')).toBeVisible();
    await expect(card.getByText('1 × This is me and I did not agree')).toBeVisible();
    await expect(card.getByText('Please take it down')).toBeVisible();
    await card.getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByText('Nobody has reported a memory.')).toBeVisible();
    await expect(page.getByRole('tab', { name: /Reports/ }).getByLabel(/reported/)).toHaveCount(0);

    // Gone from the phone's viewer and gallery too, live.
    await expect(viewer).toBeHidden();
    await expect(attendee.getByRole('button', { name: 'Open memory by pat' })).toHaveCount(0);
  } finally {
    await phone.close();
  }
});
