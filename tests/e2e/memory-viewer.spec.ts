import { expect, join, test } from './fixtures.ts';
import { chooseFiles, png } from './memory-helpers.ts';

/** Posts a memory straight to the API (setting the scene, not what is under test). */
async function postMemory(
  baseUrl: string,
  caption: string,
  files: { name: string; data: Buffer }[],
  username = 'seed',
): Promise<{ _id: string; media: string }[]> {
  const body = new FormData();
  body.append('caption', caption);
  body.append('username', username);
  for (const file of files) {
    body.append('files', new Blob([new Uint8Array(file.data)], { type: 'image/png' }), file.name);
  }
  const response = await fetch(`${baseUrl}/api/memories`, { method: 'POST', body });
  expect(response.status).toBe(201);
  return ((await response.json()) as { memories: { _id: string; media: string }[] }).memories;
}

test.describe('the memory viewer', () => {
  test('a post is one tile; the viewer steps through its memories, then on through the gallery', async ({
    page,
    server,
  }) => {
    const stamp = Date.now();
    const older = `The hallway track ${stamp}`;
    const newer = `Three angles of the keynote ${stamp}`;
    await postMemory(server.url, older, [{ name: 'hall.png', data: await png('#2f9e44') }]);
    await postMemory(server.url, newer, [
      { name: 'a.png', data: await png('#e03131') },
      { name: 'b.png', data: await png('#1971c2', 120, 160) },
      { name: 'c.png', data: await png('#f08c00') },
    ]);
    await join(page, 'grace');

    const post = page.getByRole('article').filter({ hasText: newer });
    await expect(post).toHaveCount(1);
    await expect(post.getByLabel('3 photos and videos', { exact: true })).toHaveText('3');
    await post.getByRole('button', { name: 'Open post by seed (3 photos and videos)' }).click();

    const viewer = page.getByRole('dialog', { name: 'Download Memory' });
    await expect(viewer.getByText('1 of 3 in this post')).toBeVisible();
    await expect(viewer.getByText(newer)).toBeVisible();
    await expect(viewer.getByRole('button', { name: 'Previous memory' })).toBeHidden();

    await viewer.getByRole('button', { name: 'Next memory' }).click();
    await expect(viewer.getByText('2 of 3 in this post')).toBeVisible();
    // The second picture is taller than wide: the viewer shows that file, not the first again.
    await expect(viewer.getByRole('img', { name: /Photo by seed/ })).toHaveAttribute(
      'height',
      '160',
    );
    await page.keyboard.press('ArrowRight');
    await expect(viewer.getByText('3 of 3 in this post')).toBeVisible();

    // Past the post's last memory: the next post of the gallery, the older one.
    await page.keyboard.press('ArrowRight');
    await expect(viewer.getByText(older)).toBeVisible();
    await expect(viewer.getByText(/in this post/)).toHaveCount(0);

    // And back.
    await viewer.getByRole('button', { name: 'Previous memory' }).click();
    await expect(viewer.getByText('3 of 3 in this post')).toBeVisible();
    await page.keyboard.press('ArrowLeft');
    await expect(viewer.getByText('2 of 3 in this post')).toBeVisible();

    // A swipe to the left steps on, to the right steps back, as on a phone.
    const picture = viewer.getByRole('img', { name: /Photo by seed/ });
    const swipe = async (fromX: number, toX: number) => {
      const box = await picture.boundingBox();
      const y = (box?.y ?? 0) + (box?.height ?? 0) / 2;
      const at = (x: number) => [{ identifier: 1, clientX: (box?.x ?? 0) + x, clientY: y }];
      await picture.dispatchEvent('touchstart', { touches: at(fromX), changedTouches: at(fromX) });
      await picture.dispatchEvent('touchend', { touches: [], changedTouches: at(toX) });
    };
    await swipe(100, 10);
    await expect(viewer.getByText('3 of 3 in this post')).toBeVisible();
    await swipe(10, 100);
    await expect(viewer.getByText('2 of 3 in this post')).toBeVisible();
    // A small move is not a swipe.
    await swipe(50, 40);
    await expect(viewer.getByText('2 of 3 in this post')).toBeVisible();

    // Its own page, the link to share.
    await viewer.getByRole('link', { name: 'Open page' }).click();
    await expect(page).toHaveURL(/\/memory\?id=/);
    await expect(viewer).toBeHidden();
    await expect(page.getByRole('heading', { level: 1, name: 'seed' })).toBeVisible();
    await expect(page.getByText(newer)).toBeVisible();
  });

  test('a post of four sent from the form keeps the order picked: its cover and "1 of 4"', async ({
    page,
  }) => {
    const caption = `Four in the order picked ${Date.now()}`;
    await join(page, 'picker');
    await page.getByRole('button', { name: 'SHARE A MEMORY' }).click();
    const form = page.getByRole('dialog', { name: 'Share a Memory' });
    await form.getByLabel('Add a Caption').fill(caption);
    // Told apart by their width: 161 is picked first, 164 last.
    const widths = [161, 162, 163, 164];
    const files = await Promise.all(
      widths.map(async (width, index) => ({
        name: `${index + 1}.png`,
        mimeType: 'image/png',
        buffer: await png(
          ['#e03131', '#1971c2', '#f08c00', '#2f9e44'][index] ?? '#000',
          width,
          120,
        ),
      })),
    );
    await chooseFiles(page, form, files);
    await form.getByRole('button', { name: 'Post Your Memory!' }).click();
    await expect(form).toBeHidden({ timeout: 20_000 });
    await page
      .getByRole('dialog', { name: 'Memory Shared' })
      .getByRole('button', { name: 'Done' })
      .click();

    const check = async () => {
      const post = page.getByRole('article').filter({ hasText: caption });
      await expect(post.getByLabel('4 photos and videos', { exact: true })).toHaveText('4');
      // The cover is the first file picked.
      await expect(post.getByRole('img', { name: /Photo by picker/ })).toHaveAttribute(
        'width',
        '161',
      );
      await post.getByRole('button', { name: 'Open post by picker (4 photos and videos)' }).click();
      const viewer = page.getByRole('dialog', { name: 'Download Memory' });
      for (const [index, width] of widths.entries()) {
        await expect(viewer.getByText(`${index + 1} of 4 in this post`)).toBeVisible();
        await expect(viewer.getByRole('img', { name: /Photo by picker/ })).toHaveAttribute(
          'width',
          String(width),
        );
        if (index < widths.length - 1) {
          await viewer.getByRole('button', { name: 'Next memory' }).click();
        }
      }
      await page.keyboard.press('Escape');
      await expect(viewer).toBeHidden();
    };
    // As the answer left it in the gallery, then as the server lists it.
    await check();
    await page.reload();
    await check();
    await page.setViewportSize({ width: 390, height: 844 });
    await page
      .getByRole('article')
      .filter({ hasText: caption })
      .getByRole('button', { name: /Open post by picker/ })
      .click();
    await expect(page.getByText('1 of 4 in this post')).toBeVisible();
    // The dialog's opening transition done.
    await page.waitForTimeout(500);
    await page.screenshot({ path: '/tmp/media-viewer-phone.png' });
  });

  test('deleting your own memory closes it in another open viewer and its file is gone', async ({
    browser,
    server,
  }) => {
    const caption = `Soon gone ${Date.now()}`;
    const alice = await browser.newContext({ baseURL: server.url });
    const bob = await browser.newContext({ baseURL: server.url });
    try {
      const page = await alice.newPage();
      const watcher = await bob.newPage();
      await join(page, 'alice');
      await join(watcher, 'bob');

      await page.getByRole('button', { name: 'SHARE A MEMORY' }).click();
      const form = page.getByRole('dialog', { name: 'Share a Memory' });
      await form.getByLabel('Add a Caption').fill(caption);
      await chooseFiles(page, form, [
        { name: 'stage.png', mimeType: 'image/png', buffer: await png('#e03131') },
      ]);
      await form.getByRole('button', { name: 'Post Your Memory!' }).click();
      await page
        .getByRole('dialog', { name: 'Memory Shared' })
        .getByRole('button', { name: 'Done' })
        .click();

      // Bob opens it; his tile of it has no delete action: it is not his.
      const bobsTile = watcher.getByRole('article').filter({ hasText: caption });
      await expect(bobsTile).toHaveCount(1);
      await expect(bobsTile.getByRole('button', { name: /Delete your/ })).toHaveCount(0);
      await bobsTile.getByRole('button', { name: 'Open memory by alice' }).click();
      const bobsViewer = watcher.getByRole('dialog', { name: 'Download Memory' });
      await expect(bobsViewer.getByText(caption)).toBeVisible();
      await expect(bobsViewer.getByRole('button', { name: 'Delete' })).toHaveCount(0);
      const media = await bobsViewer
        .getByRole('img', { name: /Photo by alice/ })
        .getAttribute('src');
      expect(media).toMatch(/^\/media\//);
      expect((await watcher.request.get(media ?? '')).status()).toBe(200);

      // Alice deletes it from her tile, confirming.
      const alicesTile = page.getByRole('article').filter({ hasText: caption });
      await alicesTile.getByRole('button', { name: 'Delete your memory' }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete your memory?' });
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await expect(page.getByText('Memory deleted.')).toBeVisible();
      await expect(alicesTile).toHaveCount(0);

      // Bob's viewer closes at once, saying why; the tile is gone and the file answers 404.
      await expect(bobsViewer).toBeHidden();
      await expect(watcher.getByText('That memory was deleted.')).toBeVisible();
      await expect(bobsTile).toHaveCount(0);
      expect((await watcher.request.get(media ?? '')).status()).toBe(404);
    } finally {
      await alice.close();
      await bob.close();
    }
  });

  test('a post with one bad file keeps the good ones and names the refused one in one toast', async ({
    page,
  }) => {
    const caption = `Mostly good ${Date.now()}`;
    await join(page, 'mallory');
    await page.getByRole('button', { name: 'SHARE A MEMORY' }).click();
    const form = page.getByRole('dialog', { name: 'Share a Memory' });
    await form.getByLabel('Add a Caption').fill(caption);
    await chooseFiles(page, form, [
      { name: 'good.png', mimeType: 'image/png', buffer: await png('#2f9e44') },
      { name: 'cat.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('<html><script>1</script>') },
    ]);
    await form.getByRole('button', { name: 'Post Your Memory!' }).click();
    await expect(
      page.getByText(
        /^Memory shared successfully! Not shared: cat\.jpg is not a supported image or video/,
      ),
    ).toHaveCount(1);
    await expect(page.getByRole('article').filter({ hasText: caption })).toHaveCount(1);
  });
});
