import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryListSchema } from '../shared/schemas/memory.ts';
import { S3MediaStore } from './media/s3-media-store.ts';
import { type TestS3, startTestS3 } from '../../tests/support/s3.ts';
import { type TcpProxy, startTcpProxy } from '../../tests/support/tcp-proxy.ts';
import { type TestApp, startTestApp, useTestApp } from '../../tests/support/test-app.ts';

async function postPhoto(t: TestApp, caption: string): Promise<Response> {
  const png = await sharp({
    create: { width: 64, height: 48, channels: 3, background: '#2f9e44' },
  })
    .png()
    .toBuffer();
  const form = new FormData();
  form.append('caption', caption);
  form.append('username', 'ada');
  form.append('files', new Blob([new Uint8Array(png)]), 'a.png');
  return fetch(`${t.url}/api/memories`, { method: 'POST', body: form });
}

const captions = async (t: TestApp) =>
  memoryListSchema.parse(await (await fetch(`${t.url}/api/memory`)).json()).map((m) => m.text);

async function expectStoreDown(t: TestApp, caption: string) {
  const response = await postPhoto(t, caption);
  expect(response.status).toBe(503);
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(await response.json()).toMatchObject({
    error: 'Files cannot be stored right now; try again in a moment',
    code: 'SERVICE_UNAVAILABLE',
  });
  const health = await fetch(`${t.url}/api/health`);
  expect(health.status).toBe(503);
  expect(await health.json()).toMatchObject({ error: 'Media store unavailable' });
  expect(await captions(t)).not.toContain(caption);
}

describe('an unwritable media folder', () => {
  const t = useTestApp();

  it('answers 503 with a clear error, health says so, and both recover when it is fixed', async () => {
    // The store's folder for writes in progress is not a folder any more (a broken volume).
    const tmp = path.join(t.dataDir, 'media', '.tmp');
    await fs.rm(tmp, { recursive: true, force: true });
    await fs.writeFile(tmp, 'not a folder');
    try {
      await expectStoreDown(t, 'unwritable');
      expect(await t.storedMediaKeys('memories/')).toEqual([]);
    } finally {
      await fs.rm(tmp, { force: true });
      await fs.mkdir(tmp);
    }
    expect((await fetch(`${t.url}/api/health`)).status).toBe(200);
    expect((await postPhoto(t, 'writable again')).status).toBe(201);
  });
});

/** Whether this machine lets the tests mount a small tmpfs (root on Linux). */
function canMount(): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  const probe = path.join(os.tmpdir(), `confab-mount-probe-${process.pid}`);
  try {
    execFileSync('mkdir', ['-p', probe]);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe]);
    return true;
  } catch {
    return false;
  } finally {
    execFileSync('rm', ['-rf', probe]);
  }
}

describe.runIf(canMount())('a full disk (a 2 MB tmpfs under the media folder)', () => {
  let t: TestApp;
  let mediaDir: string;
  beforeAll(async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'confab-full-'));
    mediaDir = path.join(dataDir, 'media');
    await fs.mkdir(mediaDir);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', mediaDir]);
    t = await startTestApp({ env: { DATA_DIR: dataDir } });
  });
  afterAll(async () => {
    await t.close();
    execFileSync('umount', [mediaDir]);
    await fs.rm(path.dirname(mediaDir), { recursive: true, force: true });
  });

  it('answers 503 with a clear error, health says so, and both recover when space is freed', async () => {
    const filler = path.join(mediaDir, 'filler.bin');
    const handle = await fs.open(filler, 'w');
    try {
      for (;;) await handle.write(Buffer.alloc(64 * 1024));
    } catch (error) {
      expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
    } finally {
      await handle.close();
    }
    await expectStoreDown(t, 'disk full');
    expect(await t.storedMediaKeys('memories/')).toEqual([]);

    await fs.rm(filler);
    expect((await fetch(`${t.url}/api/health`)).status).toBe(200);
    expect((await postPhoto(t, 'space again')).status).toBe(201);
  });
});

describe('an S3 store that goes down and comes back', () => {
  let s3: TestS3;
  let proxy: TcpProxy;
  let t: TestApp;
  let direct: S3MediaStore;
  beforeAll(async () => {
    s3 = await startTestS3();
    proxy = await startTcpProxy({
      host: '127.0.0.1',
      port: Number(new URL(s3.settings.endpoint).port),
    });
    t = await startTestApp({
      media: 'disk',
      env: { ...s3.env, S3_ENDPOINT: `http://127.0.0.1:${proxy.port}` },
    });
    direct = new S3MediaStore({ ...s3.settings });
  });
  afterAll(async () => {
    direct.close();
    await t.close();
    await proxy.close();
    await s3.close();
  });

  const objects = async () => {
    const keys: string[] = [];
    for await (const key of direct.list('')) keys.push(key);
    return keys.sort();
  };

  it('answers 503 and writes nothing while it is down, and works again without a restart', async () => {
    expect((await postPhoto(t, 'before')).status).toBe(201);
    const before = await objects();
    expect(before).toHaveLength(2);

    await proxy.cut();
    try {
      await expectStoreDown(t, 'store down');
      // A stored picture is not served as a 500 either.
      const [first] = before;
      expect((await fetch(`${t.url}/media/${first ?? ''}`)).status).toBe(503);
    } finally {
      await proxy.restore();
    }
    expect(await objects()).toEqual(before);

    expect((await fetch(`${t.url}/api/health`)).status).toBe(200);
    expect((await postPhoto(t, 'after')).status).toBe(201);
    expect(await captions(t)).toEqual(['after', 'before']);
    expect(await objects()).toHaveLength(4);
  });
});
