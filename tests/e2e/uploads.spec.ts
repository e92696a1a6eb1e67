import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page, Request } from '@playwright/test';
import sharp from 'sharp';
import { expect, join, test } from './fixtures.ts';
import { chooseFiles } from './memory-helpers.ts';
import { createSpeaker, uniqueName } from './qa-helpers.ts';

/** A real PNG of noise (it does not compress): about `width * height * 3` bytes, in 5 MB chunks. */
async function noisyPng(width = 1800, height = 1400): Promise<Buffer> {
  const { data, info } = await sharp({
    create: {
      width,
      height,
      channels: 3,
      background: '#888',
      noise: { type: 'gaussian', mean: 128, sigma: 70 },
    },
  })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return sharp(data, { raw: info }).png({ compressionLevel: 0 }).toBuffer();
}

/** The Upload-Offset of every PATCH the page sends to /api/uploads, in order. */
function patchOffsets(page: Page): number[] {
  const offsets: number[] = [];
  page.on('request', (request: Request) => {
    if (request.method() === 'PATCH' && request.url().includes('/api/uploads/')) {
      offsets.push(Number(request.headers()['upload-offset']));
    }
  });
  return offsets;
}

/** Resolves when the first PATCH of an upload has been answered (one chunk is on the server). */
const firstChunkStored = (page: Page) =>
  page.waitForResponse(
    (response) =>
      response.request().method() === 'PATCH' &&
      response.url().includes('/api/uploads/') &&
      response.status() === 204,
  );

const tiles = (page: Page, caption: string) =>
  page.getByRole('article').filter({ hasText: caption });

async function openForm(page: Page, caption: string, file: Buffer) {
  await page.getByRole('button', { name: 'SHARE A MEMORY' }).click();
  const form = page.getByRole('dialog', { name: 'Share a Memory' });
  await form.getByLabel('Add a Caption').fill(caption);
  await chooseFiles(page, form, [{ name: 'noise.png', mimeType: 'image/png', buffer: file }]);
  return form;
}

test.describe('uploads on bad networks', () => {
  // Requests are watched and cut here; the service worker is tested on its own below.
  test.use({ serviceWorkers: 'block' });
  // Several megabytes made, sent, cut and rendered on a shared machine.
  test.setTimeout(60_000);

  test('an upload cut off by the network resumes where it stopped when it comes back', async ({
    page,
    context,
  }) => {
    const caption = `Resumed after the Wi-Fi dropped ${Date.now()}`;
    const file = await noisyPng();
    expect(file.length).toBeGreaterThan(6 * 1024 * 1024);
    await join(page, 'wifi');
    const offsets = patchOffsets(page);
    const form = await openForm(page, caption, file);
    // The second chunk is on its way when the Wi-Fi drops: it never arrives.
    let cut = false;
    let held: () => void = () => undefined;
    const dropped = new Promise<void>((resolve) => {
      held = resolve;
    });
    await page.route(/\/api\/uploads\//, async (route) => {
      const offset = Number(route.request().headers()['upload-offset'] ?? 0);
      if (route.request().method() !== 'PATCH' || offset === 0 || cut) {
        await route.continue();
        return;
      }
      cut = true;
      held();
      await new Promise((resolve) => setTimeout(resolve, 500));
      await route.abort('internetdisconnected');
    });
    const stored = firstChunkStored(page);
    await form.getByRole('button', { name: 'Post Your Memory!' }).click();
    await stored;
    await dropped;
    await context.setOffline(true);
    await expect(form.getByText(/Waiting for connection/)).toBeVisible({ timeout: 15_000 });
    await expect(form.getByRole('progressbar', { name: 'Upload progress' })).toBeVisible();

    await context.setOffline(false);
    await expect(page.getByText('Memory shared successfully!')).toBeVisible({ timeout: 20_000 });
    await expect(tiles(page, caption)).toHaveCount(1);
    // It went on from the server's offset: no PATCH after the first started from zero again.
    expect(offsets[0]).toBe(0);
    expect(offsets.slice(1).every((offset) => offset > 0)).toBe(true);
  });

  test('a page reloaded mid-upload resumes the upload from its offset', async ({ page }) => {
    const caption = `Reloaded midway ${Date.now()}`;
    const file = await noisyPng();
    await join(page, 'reloader');
    const offsets = patchOffsets(page);
    const form = await openForm(page, caption, file);
    // After the first chunk, the next PATCH never gets through, then the page is reloaded.
    let cut = false;
    await page.route(/\/api\/uploads\//, (route) =>
      cut && route.request().method() === 'PATCH' ? route.abort() : route.continue(),
    );
    const stored = firstChunkStored(page);
    await form.getByRole('button', { name: 'Post Your Memory!' }).click();
    await stored;
    cut = true;
    const firstOffsets = offsets.length;
    await page.reload();
    cut = false;
    // The outbox kept the post; it goes on by itself and shows as sending, then is gone.
    const outbox = page.getByRole('region', { name: 'Waiting to be sent' });
    await expect(tiles(page, caption)).toHaveCount(1, { timeout: 30_000 });
    await expect(outbox).toBeHidden();
    const after = offsets.slice(firstOffsets).filter((offset) => !Number.isNaN(offset));
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((offset) => offset > 0)).toBe(true);
  });
});

/** The page, once the service worker controls it (its files are kept for offline use). */
async function controlled(page: Page): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, {
    timeout: 15_000,
  });
}

test.describe('the outbox', () => {
  test('a question asked offline is queued at once and sent on reconnect', async ({
    page,
    context,
    request,
  }) => {
    const name = uniqueName('Ada');
    await createSpeaker(request, name);
    const question = `Asked in a dead zone ${Date.now()}?`;
    await join(page, 'offline-asker');
    await controlled(page);
    await page.getByRole('button', { name: 'ASK A QUESTION' }).click();
    const dialog = page.getByRole('dialog', { name: 'Ask a Question' });
    await expect(dialog.getByRole('option', { name })).toBeAttached();
    // The speakers were listed; then the Wi-Fi drops while the question is typed.
    await context.setOffline(true);
    await dialog.getByPlaceholder('Type your question here…').fill(question);
    await dialog.getByLabel('Speaker').selectOption({ label: name });
    await dialog.getByRole('button', { name: 'Submit Question' }).click();
    // Never a spinner: queued at once, and shown as waiting.
    await expect(page.getByText(/your question is queued/)).toBeVisible();
    await expect(dialog).toBeHidden();
    const outbox = page.getByRole('region', { name: 'Waiting to be sent' });
    await expect(outbox.getByText(`Question: ${question}`)).toBeVisible();
    await expect(outbox.getByText('Waiting for connection')).toBeVisible();

    await context.setOffline(false);
    await expect(outbox).toBeHidden({ timeout: 15_000 });
    const response = await request.get('/api/questions/realtime');
    const questions = (await response.json()) as { question: string }[];
    expect(questions.filter((q) => q.question === question)).toHaveLength(1);
  });

  test('asked offline from /home, the speakers seen before are offered and the question is sent once', async ({
    page,
    context,
    request,
  }) => {
    const name = uniqueName('Ida');
    await createSpeaker(request, name);
    const first = `Asked offline from home ${Date.now()}?`;
    const second = `Asked after an offline start ${Date.now()}?`;
    await join(page, 'home-offline-asker');
    await controlled(page);
    // The phone has been online on /home a moment: it has seen the speakers.
    const seen = page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/speakers' && response.ok(),
      { timeout: 10_000 },
    );
    await page.reload();
    await expect(page.getByRole('button', { name: 'ASK A QUESTION' })).toBeVisible();
    // (Where the phone never asked for them, the dialog below shows what that leaves.)
    await seen.catch(() => undefined);
    await context.setOffline(true);

    const ask = async (question: string) => {
      await page.getByRole('button', { name: 'ASK A QUESTION' }).click();
      const dialog = page.getByRole('dialog', { name: 'Ask a Question' });
      await expect(dialog.getByRole('option', { name })).toBeAttached();
      await expect(dialog.getByText('Loading the speakers…')).toHaveCount(0);
      await dialog.getByPlaceholder('Type your question here…').fill(question);
      await dialog.getByLabel('Speaker').selectOption({ label: name });
      await dialog.getByRole('button', { name: 'Submit Question' }).click();
      await expect(page.getByText(/your question is queued/).first()).toBeVisible();
      await expect(dialog).toBeHidden();
    };
    await ask(first);
    // Started again with no network at all (the app from its cache): the speakers are still known.
    await page.reload();
    await ask(second);
    const outbox = page.getByRole('region', { name: 'Waiting to be sent' });
    await expect(outbox.getByText(`Question: ${second}`)).toBeVisible();

    await context.setOffline(false);
    await expect(outbox).toBeHidden({ timeout: 15_000 });
    const response = await request.get('/api/questions/realtime');
    const questions = (await response.json()) as { question: string; speakerName: string }[];
    for (const question of [first, second]) {
      const sent = questions.filter((q) => q.question === question);
      expect(sent).toHaveLength(1);
      expect(sent[0]?.speakerName).toBe(name);
    }
  });

  test('a queued memory can be cancelled and is never sent', async ({ page, context, request }) => {
    const caption = `Cancelled before sending ${Date.now()}`;
    await join(page, 'canceller');
    await controlled(page);
    await context.setOffline(true);
    const form = await openForm(
      page,
      caption,
      await sharp({ create: { width: 60, height: 40, channels: 3, background: '#f00' } })
        .png()
        .toBuffer(),
    );
    await form.getByRole('button', { name: 'Post Your Memory!' }).click();
    await expect(page.getByText(/your memory is saved/)).toBeVisible();
    const outbox = page.getByRole('region', { name: 'Waiting to be sent' });
    await expect(outbox.getByText(`Memory: ${caption}`)).toBeVisible();
    await expect(outbox.getByRole('img', { name: 'noise.png' })).toBeVisible();
    await outbox.getByRole('button', { name: `Cancel memory “${caption}”` }).click();
    await expect(outbox).toBeHidden();
    await context.setOffline(false);
    await page.waitForTimeout(1000);
    const list = (await (await request.get('/api/memory?limit=50')).json()) as { text: string }[];
    expect(list.filter((m) => m.text === caption)).toHaveLength(0);
  });

  test('a HEIC photo waiting to be sent shows its name, not a broken picture', async ({
    page,
    context,
  }) => {
    const caption = `A HEIC from the back row ${Date.now()}`;
    await page.setViewportSize({ width: 390, height: 844 });
    await join(page, 'heic-sender');
    await controlled(page);
    await context.setOffline(true);
    await page.getByRole('button', { name: 'SHARE A MEMORY' }).click();
    const form = page.getByRole('dialog', { name: 'Share a Memory' });
    await form.getByLabel('Add a Caption').fill(caption);
    await chooseFiles(page, form, [
      {
        name: 'photo.heic',
        mimeType: 'image/heic',
        buffer: await fs.readFile(path.resolve(import.meta.dirname, '../fixtures/photo.heic')),
      },
      { name: 'noise.png', mimeType: 'image/png', buffer: await noisyPng(60, 40) },
    ]);
    await form.getByRole('button', { name: 'Post Your Memory!' }).click();
    const outbox = page.getByRole('region', { name: 'Waiting to be sent' });
    await expect(outbox.getByText(`Memory: ${caption}`)).toBeVisible();
    // The browser cannot draw a HEIC: its name stands in a placeholder, whole.
    const placeholder = outbox.getByText('photo.heic', { exact: true });
    await expect(placeholder).toBeVisible();
    await expect(outbox.getByRole('img', { name: 'photo.heic' })).toHaveCount(0);
    // Every picture the panel shows is drawn (none is a broken-image icon).
    await expect
      .poll(() =>
        outbox
          .locator('img')
          .evaluateAll((images) =>
            images.map((image) => [
              image.getAttribute('alt'),
              (image as HTMLImageElement).naturalWidth > 0,
            ]),
          ),
      )
      .toEqual([['noise.png', true]]);
    await page.screenshot({ path: '/tmp/media-sending-heic-phone.png' });
    await outbox.getByRole('button', { name: `Cancel memory “${caption}”` }).click();
    await expect(outbox).toBeHidden();
    await context.setOffline(false);
  });
});

test.describe('installable app', () => {
  test('the manifest carries the settings, and Chrome finds the app installable', async ({
    page,
    request,
  }) => {
    const manifest = (await (await request.get('/manifest.webmanifest')).json()) as {
      name: string;
      display: string;
      icons: { sizes: string; purpose: string }[];
      share_target: { method: string; enctype: string };
    };
    expect(manifest.name).toBe('Confab');
    expect(manifest.display).toBe('standalone');
    expect(manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose}`)).toEqual([
      '192x192 any',
      '512x512 any',
      '512x512 maskable',
    ]);
    expect(manifest.share_target).toMatchObject({ method: 'POST', enctype: 'multipart/form-data' });

    await page.goto('/');
    await expect(page.getByLabel('Username')).toBeVisible();
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    const cdp = await page.context().newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: { errorId: string }[];
    };
    expect(installabilityErrors).toEqual([]);
  });

  test('the app starts offline once visited, and never serves the API from its cache', async ({
    page,
    context,
  }) => {
    await join(page, 'installer');
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    // Controlled from the next load on.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Memories' })).toBeVisible();
    await context.setOffline(true);
    await page.reload();
    await expect(page.getByRole('banner')).toBeVisible();
    const api = await page.evaluate(async () => {
      try {
        const response = await fetch('/api/health');
        return response.status;
      } catch {
        return 'network error';
      }
    });
    expect(api).toBe('network error');
    await context.setOffline(false);
  });
});
