import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestS3, startTestS3 } from '../../../tests/support/s3.ts';
import { DiskMediaStore } from './disk-media-store.ts';
import type { MediaStore } from './media-store.ts';
import { S3MediaStore } from './s3-media-store.ts';

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The same contract for every MediaStore implementation. */
describe.each(['disk', 's3'] as const)('MediaStore contract: %s', (kind) => {
  let store: MediaStore;
  let cleanup: () => Promise<void>;
  let s3: TestS3 | undefined;

  beforeAll(async () => {
    if (kind === 'disk') {
      const root = await fs.mkdtemp(path.join(os.tmpdir(), 'confab-media-'));
      store = new DiskMediaStore(root);
      cleanup = () => fs.rm(root, { recursive: true, force: true });
    } else {
      s3 = await startTestS3();
      const s3Store = new S3MediaStore(s3.settings);
      store = s3Store;
      cleanup = async () => {
        s3Store.close();
        await s3?.close();
      };
    }
  });
  afterAll(() => cleanup());

  it('passes its health check', async () => {
    await expect(store.check()).resolves.toBeUndefined();
  });

  it('stores a stream larger than one upload part and reads it back, whole and by range', async () => {
    const bytes = Buffer.alloc(12 * 1024 * 1024);
    for (let i = 0; i < bytes.length; i += 4096) bytes[i] = (i / 4096) % 251;
    const chunks = Array.from({ length: 12 }, (_, i) =>
      bytes.subarray(i * 1024 * 1024, (i + 1) * 1024 * 1024),
    );
    const stored = await store.put('memories/big.mp4', Readable.from(chunks), 'video/mp4');
    expect(stored.size).toBe(bytes.length);
    expect(await store.stat('memories/big.mp4')).toEqual({ size: bytes.length });
    expect((await readAll(await store.read('memories/big.mp4'))).equals(bytes)).toBe(true);
    const part = await readAll(await store.read('memories/big.mp4', { start: 4096, end: 8191 }));
    expect(part.equals(bytes.subarray(4096, 8192))).toBe(true);
  });

  it('stores a file of the local disk whole, leaving the file where it was', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'confab-put-file-'));
    try {
      const file = path.join(dir, 'staged.mp4');
      const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7) % 256));
      await fs.writeFile(file, bytes);
      const stored = await store.putFile('memories/from-disk.mp4', file, 'video/mp4');
      expect(stored.size).toBe(bytes.length);
      expect((await readAll(await store.read('memories/from-disk.mp4'))).equals(bytes)).toBe(true);
      expect((await fs.readFile(file)).equals(bytes)).toBe(true);
      await expect(
        store.putFile('memories/missing.mp4', path.join(dir, 'none'), 'video/mp4'),
      ).rejects.toThrow();
      expect(await store.stat('memories/missing.mp4')).toBeNull();
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('reads exactly the bytes of any range, one-byte ranges included', async () => {
    const bytes = Buffer.from(Array.from({ length: 300 }, (_, i) => i % 256));
    await store.put('memories/ranges.png', bytes, 'image/png');
    for (const [start, end] of [
      [0, 0],
      [1, 1],
      [0, 9],
      [299, 299],
      [250, 299],
      [0, 299],
    ] as const) {
      const part = await readAll(await store.read('memories/ranges.png', { start, end }));
      expect(part.equals(bytes.subarray(start, end + 1)), `${start}-${end}`).toBe(true);
    }
  });

  it('lists the keys under a prefix', async () => {
    await store.put('speakers/a.webp', Buffer.from('a'), 'image/webp');
    await store.put('speakers/b.webp', Buffer.from('b'), 'image/webp');
    const keys: string[] = [];
    for await (const key of store.list('speakers/')) keys.push(key);
    expect(keys.sort()).toEqual(['speakers/a.webp', 'speakers/b.webp']);
  });

  it('answers null for a missing object and deletes idempotently', async () => {
    expect(await store.stat('memories/none.jpg')).toBeNull();
    await store.put('memories/gone.jpg', Buffer.from('x'), 'image/jpeg');
    await store.delete('memories/gone.jpg');
    await store.delete('memories/gone.jpg');
    expect(await store.stat('memories/gone.jpg')).toBeNull();
  });

  it('leaves no object when the source fails mid-way', async () => {
    let sent = 0;
    const failing = new Readable({
      read() {
        if (sent++ < 8) this.push(Buffer.alloc(1024 * 1024, 1));
        else this.destroy(new Error('client went away'));
      },
    });
    await expect(store.put('memories/cut.mp4', failing, 'video/mp4')).rejects.toThrow();
    expect(await store.stat('memories/cut.mp4')).toBeNull();
  });

  it('refuses keys that could leave the store', async () => {
    await expect(store.put('../escape.jpg', Buffer.from('x'), 'image/jpeg')).rejects.toThrow(
      /Invalid media key/,
    );
    await expect(store.stat('a/../../b.jpg')).rejects.toThrow(/Invalid media key/);
  });
});
