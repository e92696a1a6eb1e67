import fs from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, join, startServer, test } from './fixtures.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures');

/** Posts a video straight to the API (setting the scene, not what is under test). */
async function postVideo(baseUrl: string, caption: string, name: string, username = 'tim') {
  const body = new FormData();
  body.append('caption', caption);
  body.append('username', username);
  body.append('files', new Blob([await fs.readFile(path.join(FIXTURES, name))]), name);
  const response = await fetch(`${baseUrl}/api/memories`, { method: 'POST', body });
  expect(response.status).toBe(201);
}

const tile = (page: Page, caption: string) =>
  page.getByRole('article').filter({ hasText: caption });

/** Whether a picture has loaded, with its natural size. */
const loadedSize = (picture: Locator) =>
  picture.evaluate((element: HTMLImageElement) =>
    element.complete ? [element.naturalWidth, element.naturalHeight] : [0, 0],
  );

test.describe('videos', () => {
  test('posters on video tiles: a video still being processed shows its poster and says so', async ({
    browser,
  }) => {
    const server = await startServer(
      {},
      {
        memories: [{ username: 'grace', text: 'Hallway track', kind: 'video', processing: true }],
      },
    );
    const context = await browser.newContext({ baseURL: server.url });
    try {
      const page = await context.newPage();
      await join(page, 'reader');
      const video = tile(page, 'Hallway track');
      const poster = video.getByRole('img', { name: /^Video by grace: Hallway track/ });
      await expect(poster).toBeVisible();
      await expect.poll(() => loadedSize(poster)).toEqual([180, 320]);
      await expect(video.getByRole('status')).toHaveText('Processing video…');
      // Nothing that may not play here is offered as a player yet.
      await expect(video.locator('video')).toHaveCount(0);

      // Opened, it shows the large poster and the same state.
      await video.getByRole('button', { name: 'Open memory by grace' }).click();
      const dialog = page.getByRole('dialog', { name: 'Download Memory' });
      await expect(dialog.getByRole('img', { name: /^Video by grace/ })).toBeVisible();
      await expect(dialog.getByRole('status')).toHaveText('Processing video…');
      await page.screenshot({ path: test.info().outputPath('processing.png') });
    } finally {
      await context.close();
      await server.stop();
    }
  });

  test('tapping a video tile’s picture opens the viewer, as a photo tile does', async ({
    browser,
  }) => {
    const server = await startServer(
      {},
      {
        memories: [
          { username: 'grace', text: 'Hallway track', color: '#e64980' },
          { username: 'linus', text: 'Demo clip', kind: 'video' },
        ],
      },
    );
    const context = await browser.newContext({
      baseURL: server.url,
      viewport: { width: 390, height: 844 },
      hasTouch: true,
      isMobile: true,
    });
    try {
      const page = await context.newPage();
      await join(page, 'reader');
      const video = tile(page, 'Demo clip');
      // Its picture is the button that opens it: no player's controls on it to take the tap.
      const picture = video.getByRole('button', { name: 'Open memory by linus' });
      await expect(picture).toBeVisible();
      await expect(video.locator('video[controls]')).toHaveCount(0);
      await page.screenshot({ path: '/tmp/media-gallery-video-phone.png' });
      // A tap in the middle of the picture, where a player's controls would take it.
      await picture.tap();
      const dialog = page.getByRole('dialog', { name: 'Download Memory' });
      await expect(dialog).toBeVisible();
      // The viewer plays it.
      await expect(dialog.getByLabel(/^Video by linus: Demo clip/)).toHaveJSProperty(
        'tagName',
        'VIDEO',
      );
      await page.screenshot({ path: '/tmp/media-video-viewer-phone.png' });
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      // A photo tile: the same.
      await tile(page, 'Hallway track')
        .getByRole('img', { name: /^Photo by grace/ })
        .tap();
      await expect(dialog).toBeVisible();
    } finally {
      await context.close();
      await server.stop();
    }
  });

  test('an iPhone HEVC clip, which this Chromium cannot decode, plays in the viewer once processed', async ({
    browser,
  }) => {
    const server = await startServer();
    const context = await browser.newContext({ baseURL: server.url });
    try {
      const page = await context.newPage();
      await join(page, 'reader');
      // The point: the clip as sent is HEVC, which Chromium on Linux does not decode.
      expect(
        await page.evaluate(() =>
          document.createElement('video').canPlayType('video/mp4; codecs="hvc1.1.6.L93.B0"'),
        ),
      ).toBe('');
      await expect(page.getByRole('heading', { name: 'Memories' })).toBeVisible();

      // Posted while the gallery is open: it arrives, and is replaced live when ready.
      await postVideo(server.url, 'Walking to the keynote', 'portrait-hevc.mov');
      const video = tile(page, 'Walking to the keynote');
      await expect(video.getByRole('status')).toHaveCount(0, { timeout: 20_000 });
      // Its tile shows its small picture, which opens the viewer.
      const picture = video.getByRole('img', { name: /^Video by tim: Walking to the keynote/ });
      await expect(picture).toHaveAttribute('src', /-thumb\.webp$/);
      expect((await page.request.get((await picture.getAttribute('src')) ?? '')).status()).toBe(
        200,
      );
      await picture.click();
      const player = page
        .getByRole('dialog', { name: 'Download Memory' })
        .getByLabel(/^Video by tim: Walking to the keynote/);
      await expect(player).toBeVisible();

      // It plays: frames decode at the upright portrait size, and time moves.
      const played = await player.evaluate(async (element: HTMLVideoElement) => {
        element.muted = true;
        await element.play();
        await new Promise<void>((resolve, reject) => {
          const started = Date.now();
          const check = () => {
            if (element.currentTime > 0.3) resolve();
            else if (element.error) reject(new Error(`media error ${element.error.code}`));
            else if (Date.now() - started > 10_000) reject(new Error('did not play'));
            else setTimeout(check, 50);
          };
          check();
        });
        return { width: element.videoWidth, height: element.videoHeight, error: element.error };
      });
      expect(played).toEqual({ width: 180, height: 320, error: null });
      await page.screenshot({ path: test.info().outputPath('played.png') });
    } finally {
      await context.close();
      await server.stop();
    }
  });
});
