import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import { API_PATHS } from '../../src/shared/routes.ts';
import { memoryListSchema } from '../../src/shared/schemas/memory.ts';
import { adminToken } from '../support/speakers.ts';
import { readZip } from '../support/zip.ts';
import { ADMIN_PASSWORD, logInAsAdmin } from './admin-helpers.ts';
import { type RunningServer, expect, join, startServer, test as base } from './fixtures.ts';
import { chooseFiles, png } from './memory-helpers.ts';
import { seedMemoriesInto } from './seed.ts';

/** The wall's specs run against a server of their own, with a known admin password. */
const test = base.extend<object, { wallServer: RunningServer }>({
  wallServer: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startServer({ ADMIN_PASSWORD });
      await use(server);
      await server.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ wallServer }, use) => {
    await use(wallServer.url);
  },
});

// One after the other: the approval setting is the server's.
test.describe.configure({ mode: 'serial' });

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function settings(server: RunningServer, change: Record<string, unknown>) {
  const token = await adminToken(server.url, ADMIN_PASSWORD);
  const response = await fetch(`${server.url}${API_PATHS.adminSettings}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(change),
  });
  expect(response.status).toBe(200);
}

test('the wall shows a memory posted elsewhere within 2 s, and drops a deleted one at once', async ({
  page,
  wallServer,
}, testInfo) => {
  await seedMemoriesInto(wallServer, [
    { username: 'wall-ada', text: 'The opening keynote, from the back row', color: '#e03131' },
    { username: 'wall-grace', text: 'Coffee queue at the break', color: '#1971c2' },
  ]);
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.goto('/wall');
  const wall = page.getByRole('main', { name: /^Photo wall of / });
  await expect(wall).toBeVisible();
  // The newest first, its author and caption over it; the QR code to join in a corner.
  await expect(wall.getByText('@wall-grace')).toBeVisible();
  await expect(wall.getByRole('img', { name: /^QR code: http/ })).toBeVisible();
  await expect(wall.getByText('Scan to share yours')).toBeVisible();

  const [posted] = await seedMemoriesInto(wallServer, [
    { username: 'wall-linus', text: 'Just posted from my phone!', color: '#2f9e44' },
  ]);
  const start = Date.now();
  await expect(wall.getByText('@wall-linus')).toBeVisible({ timeout: 2_000 });
  await expect(wall.getByRole('img', { name: /^Photo by wall-linus/ })).toBeVisible({
    timeout: 2_000 - (Date.now() - start),
  });
  console.log(`[wall] a new memory on the wall after ${Date.now() - start} ms`);
  await page.waitForTimeout(1_000);
  await page.screenshot({ path: testInfo.outputPath('wall-1920x1080.png') });
  await page.screenshot({ path: 'test-results/wall-1920x1080.png' });

  // On a phone held upright, the caption sits above the join panel, not under it.
  await page.setViewportSize({ width: 390, height: 844 });
  const caption = await wall.getByText('Just posted from my phone!').boundingBox();
  const qr = await wall.getByRole('img', { name: /^QR code: http/ }).boundingBox();
  expect(caption && qr && caption.y + caption.height <= qr.y).toBe(true);
  await page.screenshot({ path: testInfo.outputPath('wall-390x844.png') });
  await page.setViewportSize({ width: 1920, height: 1080 });

  // The admin deletes it: it leaves the projector at once.
  const token = await adminToken(wallServer.url, ADMIN_PASSWORD);
  const deleted = await fetch(`${wallServer.url}${API_PATHS.adminMediaItem(posted?._id ?? '')}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(deleted.status).toBe(200);
  await expect(wall.getByText('@wall-linus')).toHaveCount(0, { timeout: 3_000 });
});

test('a memory waits for approval: its poster sees it waiting, others do not, until the admin approves', async ({
  browser,
  page,
  wallServer,
}) => {
  await settings(wallServer, { moderateMemories: true });
  const other = await browser.newContext({ baseURL: wallServer.url });
  try {
    const watcher = await other.newPage();
    await join(page, 'poster-pia');
    await join(watcher, 'watcher-wes');

    await page.getByRole('button', { name: 'SHARE A MEMORY' }).click();
    const form = page.getByRole('dialog', { name: 'Share a Memory' });
    await form.getByLabel('Add a Caption').fill('Waiting for the green light');
    await chooseFiles(page, form, [
      { name: 'light.png', mimeType: 'image/png', buffer: await png('#f08c00') },
    ]);
    await form.getByRole('button', { name: 'Post Your Memory!' }).click();
    await expect(
      page.getByText('Memory received! It will appear in the gallery once approved.'),
    ).toBeVisible();
    const shared = page.getByRole('dialog', { name: 'Memory Shared' });
    await expect(shared).toContainText('once it is approved');
    await shared.getByRole('button', { name: 'Done' }).click();

    const tile = page.getByRole('article').filter({ hasText: 'Waiting for the green light' });
    await expect(tile).toBeVisible();
    await expect(tile.getByText('Waiting for approval')).toBeVisible();
    // A reload keeps it, still waiting.
    await page.reload();
    await expect(tile.getByText('Waiting for approval')).toBeVisible();
    // Nobody else sees it.
    await watcher.waitForTimeout(3_500);
    await expect(watcher.getByText('Waiting for the green light')).toHaveCount(0);

    // The admin approves it from "Awaiting approval".
    const admin = await browser.newPage({ baseURL: wallServer.url });
    await logInAsAdmin(admin);
    await admin.getByRole('tab', { name: /Awaiting approval/ }).click();
    const card = admin.getByRole('article', { name: 'Memory by poster-pia' });
    await expect(card).toContainText('Waiting for the green light');
    await card.getByRole('button', { name: 'Approve' }).click();
    await expect(admin.getByText('Approved the memory by poster-pia: it is live.')).toBeVisible();
    await expect(admin.getByText('No memories are awaiting approval.')).toBeVisible();
    await admin.close();

    // Live everywhere: the poster's tile is no longer waiting, the others see it.
    await expect(tile).toBeVisible();
    await expect(tile.getByText('Waiting for approval')).toHaveCount(0);
    await expect(
      watcher.getByRole('article').filter({ hasText: 'Waiting for the green light' }),
    ).toBeVisible();
  } finally {
    await other.close();
    await settings(wallServer, { moderateMemories: false });
  }
});

test('Download all gives a ZIP of every published memory, each file the one served', async ({
  page,
  wallServer,
}) => {
  await seedMemoriesInto(wallServer, [
    { username: 'zip-zoe', text: 'Into the archive: one', color: '#5f3dc4' },
    { username: 'zip-zed', text: 'Into the archive: two', color: '#0c8599' },
  ]);
  await logInAsAdmin(page);
  await expect(page.getByRole('link', { name: 'Open the wall' })).toHaveAttribute('href', '/wall');
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download all' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^memories-\d{4}-\d{2}-\d{2}\.zip$/);
  const entries = readZip(await fs.readFile(await download.path()));

  const published = memoryListSchema.parse(
    await (await fetch(`${wallServer.url}${API_PATHS.memoryList}?limit=200`)).json(),
  );
  expect(entries).toHaveLength(published.length);
  const served = new Map<string, string>();
  for (const memory of published) {
    const bytes = Buffer.from(
      await (await fetch(`${wallServer.url}${memory.media}`)).arrayBuffer(),
    );
    served.set(sha256(bytes), memory.username);
  }
  const archived = entries.map((entry) => served.get(sha256(entry.data)));
  expect(archived.sort()).toEqual(published.map((memory) => memory.username).sort());
  expect(entries.map((entry) => entry.name)).toContainEqual(
    expect.stringMatching(/ zip-zoe - Into the archive one\.png$/),
  );
  // The button is back once the file is saved.
  await expect(page.getByRole('button', { name: 'Download all' })).toBeVisible();
});
