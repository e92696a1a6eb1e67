import type { Page } from '@playwright/test';
import { expect, join, startServer, test } from './fixtures.ts';
import { chooseFiles, png } from './memory-helpers.ts';
import { seedMemoriesInto } from './seed.ts';

interface ApiMemory {
  _id: string;
  media: string;
  thumbnail: string | null;
  text: string;
}

/** Posts a memory straight to the API (setting the scene, not what is under test). */
async function postMemory(
  baseUrl: string,
  caption: string,
  files: { name: string; data: Buffer }[],
  username = 'seed',
): Promise<ApiMemory[]> {
  const body = new FormData();
  body.append('caption', caption);
  body.append('username', username);
  for (const file of files) {
    body.append('files', new Blob([new Uint8Array(file.data)], { type: 'image/png' }), file.name);
  }
  const response = await fetch(`${baseUrl}/api/memories`, { method: 'POST', body });
  expect(response.status).toBe(201);
  return ((await response.json()) as { memories: ApiMemory[] }).memories;
}

const tiles = (page: Page, caption: string) =>
  page.getByRole('article').filter({ hasText: caption });

test.describe('memories', () => {
  test('a post of two images appears in another open gallery at once, without a reload', async ({
    browser,
    server,
  }) => {
    const caption = `Two views of the keynote ${Date.now()}`;
    const alice = await browser.newContext({ baseURL: server.url });
    const bob = await browser.newContext({ baseURL: server.url });
    try {
      const page = await alice.newPage();
      const watcher = await bob.newPage();
      await join(page, 'alice');
      await join(watcher, 'bob');
      await expect(watcher.getByRole('heading', { name: 'Memories' })).toBeVisible();
      // Bob's polls fail from now on: only the live socket can bring the new memories.
      await watcher.route(/\/api\/memory\?/, (route) => route.abort());

      await page.getByRole('button', { name: 'SHARE A MEMORY' }).click();
      const form = page.getByRole('dialog', { name: 'Share a Memory' });
      await expect(
        form.getByText(/Supported formats: JPG, PNG, WebP, GIF, HEIC, HEIF, AVIF, MP4/),
      ).toBeVisible();
      await form.getByLabel('Add a Caption').fill(caption);
      await chooseFiles(page, form, [
        { name: 'stage.png', mimeType: 'image/png', buffer: await png('#e03131') },
        { name: 'crowd.png', mimeType: 'image/png', buffer: await png('#1971c2') },
      ]);
      await expect(form.getByRole('img', { name: 'Preview of stage.png' })).toBeVisible();
      await expect(form.getByRole('img', { name: 'Preview of crowd.png' })).toBeVisible();
      await expect(form.getByRole('button', { name: 'Add More Images' })).toBeVisible();
      await form.getByRole('button', { name: 'Post Your Memory!' }).click();

      const shared = page.getByRole('dialog', { name: 'Memory Shared' });
      await expect(shared).toBeVisible();
      await expect(shared).toContainText('social feed');
      await expect(page.getByText('2 memories shared successfully!')).toBeVisible();
      await expect(form).toBeHidden();
      // One tile for the post, with its count.
      await expect(tiles(page, caption)).toHaveCount(1);
      await expect(
        tiles(page, caption).getByLabel('2 photos and videos', { exact: true }),
      ).toHaveText('2');

      await expect(tiles(watcher, caption)).toHaveCount(1);
      await expect(
        tiles(watcher, caption).getByLabel('2 photos and videos', { exact: true }),
      ).toBeVisible();
      await expect(
        tiles(watcher, caption)
          .first()
          .getByRole('img', { name: /Photo by alice/ }),
      ).toBeVisible();

      // The form was cleared for the next memory.
      await shared.getByRole('button', { name: 'Done' }).click();
      await page.getByRole('button', { name: 'SHARE A MEMORY' }).click();
      await expect(form.getByLabel('Add a Caption')).toHaveValue('');
      await expect(form.getByRole('button', { name: 'Choose photos or videos' })).toBeVisible();
    } finally {
      await alice.close();
      await bob.close();
    }
  });

  test('a tile opens "Download Memory", whose Download saves memory.png', async ({
    page,
    server,
  }) => {
    const caption = `Badge photo ${Date.now()}`;
    await postMemory(server.url, caption, [{ name: 'badge.png', data: await png('#2f9e44') }]);
    await join(page, 'grace');
    // The offer of announcements floats over the bottom of the screen until put away.
    await page.getByRole('button', { name: 'Not now' }).click();
    const tile = tiles(page, caption);
    await expect(tile).toHaveCount(1);
    await tile.getByRole('button', { name: /Open memory by seed/ }).click();
    const modal = page.getByRole('dialog', { name: 'Download Memory' });
    await expect(modal.getByText(caption)).toBeVisible();
    await expect(modal.getByRole('img', { name: /Photo by seed/ })).toBeVisible();
    const download = page.waitForEvent('download');
    await modal.getByRole('link', { name: 'Download' }).click();
    expect((await download).suggestedFilename()).toBe('memory.png');

    // The tile's own icon downloads too.
    await page.keyboard.press('Escape');
    const direct = page.waitForEvent('download');
    await tile.getByRole('link', { name: 'Download memory by seed' }).click();
    expect((await direct).suggestedFilename()).toBe('memory.png');
  });

  test('an image that fails to load is swapped for the fallback image', async ({
    page,
    server,
  }) => {
    const caption = `Lost thumbnail ${Date.now()}`;
    const [memory] = await postMemory(server.url, caption, [
      { name: 'lost.png', data: await png('#f76707') },
    ]);
    await page.route(`**${memory?.thumbnail ?? ''}`, (route) =>
      route.fulfill({ status: 404, json: { error: 'Media not found' } }),
    );
    await join(page, 'walter');
    await expect(tiles(page, caption).getByRole('img', { name: /Photo by seed/ })).toHaveAttribute(
      'src',
      '/media-fallback.svg',
    );
  });

  test('a refused file keeps the form and says why', async ({ page }) => {
    await join(page, 'mallory');
    await page.getByRole('button', { name: 'SHARE A MEMORY' }).click();
    const form = page.getByRole('dialog', { name: 'Share a Memory' });
    await form.getByLabel('Add a Caption').fill('Not really a photo');
    await chooseFiles(page, form, [
      { name: 'cat.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('<html><script>1</script>') },
    ]);
    await form.getByRole('button', { name: 'Post Your Memory!' }).click();
    await expect(
      page.getByText(/^Error submitting memory: cat\.jpg is not a supported image or video/),
    ).toBeVisible();
    await expect(form.getByLabel('Add a Caption')).toHaveValue('Not really a photo');
    await expect(form.getByRole('button', { name: 'Remove cat.jpg' })).toBeVisible();
  });

  test('the caption and the files are required', async ({ page }) => {
    await join(page, 'quinn');
    await page.getByRole('button', { name: 'SHARE A MEMORY' }).click();
    const form = page.getByRole('dialog', { name: 'Share a Memory' });
    await form.getByRole('button', { name: 'Post Your Memory!' }).click();
    await expect(form.getByText('Caption is required')).toBeVisible();
    await expect(form.getByText('Add at least one photo or video.')).toBeVisible();
    await chooseFiles(page, form, [
      { name: 'one.png', mimeType: 'image/png', buffer: await png('#fab005') },
    ]);
    await form.getByRole('button', { name: 'Remove one.png' }).click();
    await expect(form.getByRole('button', { name: 'Choose photos or videos' })).toBeVisible();
  });

  test('the share dialog posts, then offers "Post on X" with the caption and a link', async ({
    page,
  }) => {
    const caption = `Best talk of the day ${Date.now()}`;
    await join(page, 'lin');
    await page.getByRole('button', { name: 'Share your moments' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share Your Confab Moments!' });
    await expect(dialog).toContainText('Twitter feed');
    await chooseFiles(page, dialog, [
      { name: 'talk.png', mimeType: 'image/png', buffer: await png('#7048e8') },
    ]);
    await expect(dialog.getByRole('img', { name: 'Preview of talk.png' })).toBeVisible();
    await dialog.getByLabel('Caption').fill(caption);
    await dialog.getByRole('button', { name: 'Share Moments' }).click();
    const postOnX = dialog.getByRole('link', { name: 'Post on X' });
    await expect(postOnX).toBeVisible();
    const href = new URL((await postOnX.getAttribute('href')) ?? '');
    expect(href.origin + href.pathname).toBe('https://x.com/intent/tweet');
    expect(href.searchParams.get('text')).toBe(`${caption} #Confab`);
    expect(href.searchParams.get('url')).toMatch(/\/m\/[0-9a-f-]{36}$/);
    await expect(tiles(page, caption)).toHaveCount(1);

    // The link opens the memory's own page, for anyone, with its preview tags.
    const memoryUrl = href.searchParams.get('url') ?? '';
    const visitor = await page.context().browser()?.newContext();
    const other = await visitor?.newPage();
    if (!other || !visitor) throw new Error('no second context');
    await other.goto(memoryUrl);
    await expect(other.getByText(caption)).toBeVisible();
    await expect(other.getByRole('heading', { name: 'lin' })).toBeVisible();
    await expect(other.getByRole('link', { name: 'Download' })).toBeVisible();
    await expect(other.getByRole('link', { name: 'Post on X' })).toBeVisible();
    await expect(other.getByRole('link', { name: 'Join Confab to share yours' })).toBeVisible();
    await expect(other.locator('meta[property="og:image"]')).toHaveAttribute(
      'content',
      /\/media\/memories\/.+\.png$/,
    );
    await expect(other.locator('meta[name="twitter:card"]')).toHaveAttribute(
      'content',
      'summary_large_image',
    );
    await visitor.close();
  });

  test('an unknown memory page says so', async ({ page }) => {
    await page.goto('/memory?id=0190f7d2-0000-7000-8000-000000000000');
    await expect(page.getByRole('heading', { name: 'Memory not found' })).toBeVisible();
  });
});

test.describe('memories on a server of their own', () => {
  test('an empty gallery shows its image and "No media available"', async ({ browser }) => {
    const server = await startServer();
    const context = await browser.newContext({ baseURL: server.url });
    try {
      const page = await context.newPage();
      await join(page, 'first');
      await expect(page.getByText('No media available')).toBeVisible();
      await expect(page.locator('img[src="/no-data.svg"]')).toBeVisible();
    } finally {
      await context.close();
      await server.stop();
    }
  });

  test('a gallery error is shown as the server said it', async ({ page }) => {
    await page.route(/\/api\/memory\?/, (route) =>
      route.fulfill({
        status: 503,
        json: { error: 'Database unavailable', code: 'SERVICE_UNAVAILABLE' },
      }),
    );
    await join(page, 'oscar');
    // The query retries a few times first, as the app's default options say.
    await expect(page.getByText('Database unavailable')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByText('The gallery could not be loaded')).toBeVisible();
  });

  test('a file over the real limit is turned away with a toast naming it', async ({ browser }) => {
    const server = await startServer({ MAX_UPLOAD_MB: '1' });
    const context = await browser.newContext({ baseURL: server.url });
    try {
      const page = await context.newPage();
      await join(page, 'heidi');
      const big = Buffer.alloc(1.5 * 1024 * 1024, 1);
      await page.getByRole('button', { name: 'Share your moments' }).click();
      const dialog = page.getByRole('dialog', { name: 'Share Your Confab Moments!' });
      await expect(dialog.getByText(/up to 1MB each/)).toBeVisible();
      await chooseFiles(page, dialog, [
        { name: 'holiday.jpg', mimeType: 'image/jpeg', buffer: big },
      ]);
      await expect(
        page.getByText('holiday.jpg is larger than 1MB and cannot be uploaded.'),
      ).toBeVisible();
      await expect(dialog.getByRole('img', { name: 'Preview of holiday.jpg' })).toHaveCount(0);
    } finally {
      await context.close();
      await server.stop();
    }
  });

  test('memories posted after the gallery was served all show on a phone, a video among them', async ({
    browser,
  }) => {
    const server = await startServer();
    const context = await browser.newContext({
      baseURL: server.url,
      viewport: { width: 360, height: 640 },
    });
    try {
      const page = await context.newPage();
      await seedMemoriesInto(server, [{ username: 'grace', text: 'Hallway track' }]);
      await join(page, 'reader');
      await expect(page.getByRole('button', { name: 'Open memory by grace' })).toBeVisible();

      // Three more arrive after the gallery's first page was answered (and kept) for the
      // version before them.
      await seedMemoriesInto(server, [
        { username: 'ada', text: 'Opening keynote', color: '#e64980' },
        { username: 'linus', text: 'Demo clip', kind: 'video' },
        { username: 'barbara', text: 'Closing panel', color: '#5c7cfa' },
      ]);
      await page.reload();
      // Two columns: four tiles make two rows, and both are rendered.
      await expect(page.getByRole('article')).toHaveCount(4);
      for (const caption of ['Closing panel', 'Demo clip', 'Opening keynote', 'Hallway track']) {
        await expect(tiles(page, caption)).toBeVisible();
      }
    } finally {
      await context.close();
      await server.stop();
    }
  });

  test('older memories load as the gallery is scrolled', async ({ browser }) => {
    const server = await startServer();
    const context = await browser.newContext({ baseURL: server.url });
    try {
      const page = await context.newPage();
      const data = await png('#12b886', 24, 24);
      // Posts of one file each, so the first page's 60 are 60 tiles (a post is one tile).
      for (let post = 0; post < 70; post += 1) {
        await postMemory(server.url, `Batch ${post}`, [{ name: `${post}.png`, data }]);
      }
      await join(page, 'ivan');
      await expect(page.getByText('Batch 69', { exact: true })).toBeVisible();
      // The first page holds 60 of the 70: the oldest post is not there yet.
      await expect(page.getByText('Batch 0', { exact: true })).toHaveCount(0);
      await expect(async () => {
        await page.keyboard.press('End');
        await expect(page.getByText('Batch 0', { exact: true })).toBeVisible({ timeout: 1_000 });
      }).toPass();
    } finally {
      await context.close();
      await server.stop();
    }
  });

  test('a gallery of 1,500 memories keeps only the rows near the viewport in the DOM', async ({
    browser,
  }) => {
    test.setTimeout(300_000);
    const total = 1_500;
    const colours = ['#e64980', '#12b886', '#5c7cfa', '#fab005', '#7950f2', '#15aabf'];
    const name = (n: number) => `guest-${String(n).padStart(4, '0')}`;
    // Stored oldest first: guest-1500 is the newest, at the top; guest-0001 is at the very end.
    const server = await startServer(
      {},
      {
        memories: Array.from({ length: total }, (_, i) => ({
          username: name(i + 1),
          text: `Moment ${i + 1}`,
          color: colours[i % colours.length],
        })),
      },
    );
    const context = await browser.newContext({ baseURL: server.url });
    const openButton = (page: Page, n: number | string) =>
      page.getByRole('button', {
        name: `Open memory by ${typeof n === 'number' ? name(n) : n}`,
        exact: true,
      });
    try {
      const page = await context.newPage();
      await join(page, 'scroller');
      await expect(openButton(page, total)).toBeVisible();

      // Tabbing from the first tile reaches tiles that were not in the DOM when it started
      // (three stops a tile: the picture, the caption, the download icon).
      await expect(openButton(page, total - 30)).toHaveCount(0);
      await openButton(page, total).focus();
      for (let stop = 0; stop < 30 * 3; stop += 1) await page.keyboard.press('Tab');
      await expect(openButton(page, total - 30)).toBeFocused();

      // Scrolling to the end loads page after page until the oldest memory shows.
      await expect(async () => {
        await page.keyboard.press('End');
        await expect(openButton(page, 1)).toBeVisible({ timeout: 1_000 });
      }).toPass({ timeout: 180_000 });
      await expect(page.getByRole('button', { name: 'Load older memories' })).toHaveCount(0);
      await expect(page.getByText('Moment 1', { exact: true })).toBeVisible();

      // All 1,500 are loaded, but only the rows near the viewport are in the DOM.
      const tilesInDom = await page.getByRole('article').count();
      test.info().annotations.push({
        type: 'tiles in the DOM',
        description: `${tilesInDom} of ${total} loaded`,
      });
      expect(tilesInDom).toBeGreaterThan(0);
      expect(tilesInDom).toBeLessThan(100);
      await expect(openButton(page, total)).toHaveCount(0);

      // Back at the top, the first tile is rendered again and still opens its modal.
      await page.keyboard.press('Home');
      await openButton(page, total).click();
      const modal = page.getByRole('dialog', { name: 'Download Memory' });
      await expect(modal.getByText(`Moment ${total}`, { exact: true })).toBeVisible();
      await expect(modal.getByRole('link', { name: 'Download' })).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(modal).toBeHidden();

      // A memory posted now still appears at the top, brought by the socket alone.
      await page.route(/\/api\/memory\?/, (route) => route.abort());
      await postMemory(
        server.url,
        'Fresh from the closing keynote',
        [{ name: 'fresh.png', data: await png('#fa5252') }],
        'latecomer',
      );
      await expect(page.getByRole('article').first()).toContainText(
        'Fresh from the closing keynote',
      );
      await expect(openButton(page, 'latecomer')).toBeVisible();
    } finally {
      await context.close();
      await server.stop();
    }
  });

  test('/memoryForm shows the gallery with the memory form open; nothing scrolls sideways', async ({
    page,
    server,
  }) => {
    const [memory] = await postMemory(
      server.url,
      'A caption with a very_long_unbroken_word_that_could_push_the_page_sideways_on_a_phone',
      [{ name: 'wide.png', data: await png('#e64980', 1600, 400) }],
      'someone_with_a_remarkably_long_username',
    );
    await page.setViewportSize({ width: 360, height: 740 });
    await join(page, 'judy');
    await page.goto('/memoryForm');
    await expect(page.getByRole('dialog', { name: 'Share a Memory' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('heading', { name: 'Memories', level: 1 })).toBeVisible();
    await page.goto('/home');
    await expect(page.getByRole('button', { name: 'SHARE A MEMORY' })).toBeVisible();
    const overflow = () =>
      page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.goto(`/memory?id=${memory?._id ?? ''}`);
    await expect(page.getByRole('link', { name: 'Download' })).toBeVisible();
    expect(await overflow()).toBeLessThanOrEqual(0);
  });
});
