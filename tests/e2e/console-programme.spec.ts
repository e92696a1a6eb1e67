import { type RunningServer, expect, startServer, test as base } from './fixtures.ts';
import { ADMIN_PASSWORD, logInAsAdmin } from './admin-helpers.ts';
import { expectNoHorizontalScroll } from './qa-helpers.ts';

/** The programme is the event's: this spec imports one into a server of its own. */
const test = base.extend<object, { programmeServer: RunningServer }>({
  programmeServer: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startServer({ ADMIN_PASSWORD });
      await use(server);
      await server.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ programmeServer }, use) => {
    await use(programmeServer.url);
  },
});

test('the console imports a schedule, edits it by hand and hands out the speakers’ links', async ({
  context,
  page,
}) => {
  test.slow();
  await logInAsAdmin(page, ADMIN_PASSWORD, 'programme');
  await expect(page.getByRole('heading', { name: 'Import schedule' })).toBeVisible();
  await expect(
    page.getByText('No sessions yet: import a schedule, or add them by hand.'),
  ).toBeVisible();

  // A pretalx schedule.json, picked as an organiser picks it.
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: /Pick schedule\.xml or schedule\.json/ }).click();
  await (await chooser).setFiles('tests/fixtures/schedules/pretalx.json');
  await expect(page.getByRole('status').filter({ hasText: 'Schedule imported' })).toContainText(
    '11 added, 0 updated, 0 cancelled; 7 speakers added, 0 matched',
  );
  // The schedule named its time zone, and the times read in it.
  await expect(page.getByRole('combobox', { name: 'The event’s time zone' })).toHaveValue(
    'Europe/Berlin',
  );
  await expect(page.getByText('Times in Europe/Berlin')).toBeVisible();
  const rooms = page.getByRole('region', { name: 'Rooms' });
  await expect(rooms.getByRole('listitem')).toHaveText(['Main Hall', 'Room 101', 'Lab & Workshop']);
  const opening = page.getByRole('article', { name: 'Opening & Welcome' });
  await expect(opening).toContainText('09:30–10:15');
  await expect(opening).toContainText('Ada Lovelace');

  // An end before the start: the server's refusal shows on the field.
  await page.getByRole('button', { name: 'Edit Opening & Welcome' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit the session' });
  await expect(dialog.getByLabel('Starts')).toHaveValue('2026-03-27T09:30');
  await expect(dialog.getByText('Europe/Berlin time (UTC+01:00)').first()).toBeVisible();
  await dialog.getByLabel('Ends').fill('2026-03-27T09:00');
  await dialog.getByRole('button', { name: 'Save session' }).click();
  await expect(dialog.getByText('endsAt must be later than startsAt')).toBeVisible();
  await expect(dialog.getByLabel('Ends')).toHaveAttribute('aria-invalid', 'true');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(opening).toContainText('09:30–10:15');

  // Another console of the organiser's, open on the same tab, follows the edits live.
  const other = await context.newPage();
  await other.goto('/borderlessadmin?tab=programme');
  await expect(other.getByRole('article', { name: 'Opening & Welcome' })).toBeVisible();

  // A room and a session by hand.
  await rooms.getByRole('textbox', { name: 'New room' }).fill('Side Stage');
  await rooms.getByRole('button', { name: 'Add room' }).click();
  await expect(rooms.getByRole('listitem')).toHaveText([
    'Main Hall',
    'Room 101',
    'Lab & Workshop',
    'Side Stage',
  ]);
  await rooms.getByRole('button', { name: 'Move Side Stage up' }).click();
  await expect(rooms.getByRole('listitem').nth(2)).toHaveText('Side Stage');

  await page.getByRole('button', { name: 'Add session' }).click();
  const adding = page.getByRole('dialog', { name: 'Add a session' });
  await adding.getByRole('textbox', { name: 'Title' }).fill('Hallway track');
  await adding.getByRole('combobox', { name: 'Room' }).click();
  await page.getByRole('option', { name: 'Side Stage' }).click();
  await expect(adding.getByLabel('Starts')).toHaveValue('2026-03-27T09:00');
  await adding.getByLabel('Ends').fill('2026-03-27T10:00');
  await adding.getByRole('combobox', { name: 'Speakers' }).fill('Grace');
  await page.getByRole('option', { name: 'Grace Hopper' }).click();
  await adding.getByRole('button', { name: 'Add session' }).click();
  await expect(adding).toBeHidden();
  const hallway = page
    .getByRole('region', { name: 'Side Stage' })
    .getByRole('article', { name: 'Hallway track' });
  await expect(hallway).toContainText('09:00–10:00');
  await expect(hallway).toContainText('Grace Hopper');
  await expect(
    other
      .getByRole('region', { name: 'Side Stage' })
      .getByRole('article', { name: 'Hallway track' }),
  ).toBeVisible();
  await other.close();
  await expectNoHorizontalScroll(page);

  // The speakers' sign-in links, after saying that the old ones stop working.
  await page.getByRole('button', { name: 'Download sign-in links (CSV)' }).click();
  const confirm = page.getByRole('dialog', { name: 'Replace every sign-in link?' });
  const download = page.waitForEvent('download');
  await confirm.getByRole('button', { name: 'Replace and download' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('speaker-links.csv');
  const csv = Buffer.concat(await (await file.createReadStream()).toArray())
    .toString()
    .replace(/^\uFEFF/, '');
  const [header, ...rows] = csv.trim().split('\r\n');
  expect(header).toBe('name,username,link');
  expect(rows).toHaveLength(7);
  const ada = rows.find((row) => row.startsWith('Ada Lovelace,'));
  expect(ada).toMatch(
    /^Ada Lovelace,[^,]+,http:\/\/127\.0\.0\.1:\d+\/SpeakerLogin#username=.+&secret=.+$/,
  );
  await expect(page.getByText('The sign-in links are downloaded.')).toBeVisible();
});
