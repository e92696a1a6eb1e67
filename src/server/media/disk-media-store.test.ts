import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DiskMediaStore } from './disk-media-store.ts';

describe('DiskMediaStore', () => {
  let root: string;
  let store: DiskMediaStore;
  beforeEach(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'confab-media-'));
    store = new DiskMediaStore(root);
  });
  afterEach(() => fs.rm(root, { recursive: true, force: true }));

  it('stores, reads, stats and deletes objects', async () => {
    await store.put('memories/a.jpg', Buffer.from('hello'), 'image/jpeg');
    expect(await store.stat('memories/a.jpg')).toEqual({ size: 5 });
    const chunks: Buffer[] = [];
    for await (const chunk of await store.read('memories/a.jpg', { start: 1, end: 3 }))
      chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('ell');
    await store.delete('memories/a.jpg');
    await store.delete('memories/a.jpg');
    expect(await store.stat('memories/a.jpg')).toBeNull();
  });

  it('leaves nothing behind when the source stream fails', async () => {
    const failing = new Readable({
      read() {
        this.push(Buffer.alloc(1024));
        this.destroy(new Error('client went away'));
      },
    });
    await expect(store.put('memories/b.jpg', failing, 'image/jpeg')).rejects.toThrow(
      'client went away',
    );
    expect(await store.stat('memories/b.jpg')).toBeNull();
    expect(await fs.readdir(path.join(root, '.tmp'))).toEqual([]);
  });

  it('refuses keys that could leave the store', async () => {
    for (const key of ['../x.jpg', 'memories/../../x.jpg', '/etc/passwd', 'a/b/.jpg', 'x']) {
      await expect(store.put(key, Buffer.from('x'), 'image/jpeg'), key).rejects.toThrow(
        /Invalid media key/,
      );
    }
  });

  it('names the folder of its writes in progress, which the orphan sweeper cleans', () => {
    expect(store.temporaryDir).toBe(path.join(root, '.tmp'));
  });
});
