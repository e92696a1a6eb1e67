import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { fixture } from '../../../tests/support/media.ts';
import { memoryListSchema } from '../../shared/schemas/memory.ts';
import { buildApp } from '../app.ts';
import { newId } from '../lib/ids.ts';
import { stripVideoMetadata } from '../media/video-metadata.ts';
import { testDatabases, useTestApp } from '../../../tests/support/test-app.ts';
import { LOCATION_AND_DEVICE, contains } from '../../../tests/support/video-structure.ts';
import { findMemory, insertMemories, listUnstrippedVideos } from './memory.repository.ts';

/** A copy of a fixture with its metadata blanked: a video with nothing left to clean. */
async function strippedFixture(name: string): Promise<Buffer> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'confab-sweep-'));
  try {
    const file = path.join(dir, name);
    await fs.writeFile(file, await fixture(name));
    await stripVideoMetadata(file);
    return await fs.readFile(file);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

describe.each(testDatabases)('cleaning the videos stored before uploads did (%s)', (database) => {
  const t = useTestApp({ database });

  /** Stores a video as the app did before decision 095: the file as sent, the row not marked. */
  async function storeAsBefore(data: Buffer | undefined, contentType: string, ext: string) {
    const id = newId();
    const mediaKey = `memories/${newId()}.${ext}`;
    if (data) await t.app.deps.media.put(mediaKey, data, contentType);
    await insertMemories(t.app.deps.db, [
      {
        id,
        postId: newId(),
        username: 'ada',
        text: 'Stored before the fix',
        contentType,
        mediaKey,
        thumbnailKey: null,
        originalKey: mediaKey,
        width: null,
        height: null,
        sizeBytes: data?.length ?? 0,
        createdAt: new Date().toISOString(),
        metadataStripped: false,
        status: 'published',
      },
    ]);
    return { id, mediaKey };
  }

  const mediaKeyOf = async (id: string) => (await findMemory(t.app.deps.db, id))?.mediaKeys[0];

  it('points each at a cleaned copy under a new key and deletes the old file, once', async () => {
    const mov = await storeAsBefore(await fixture('gps-iphone.mov'), 'video/quicktime', 'mov');
    const webm = await storeAsBefore(await fixture('gps-tags.webm'), 'video/webm', 'webm');
    const clean = await storeAsBefore(await strippedFixture('clip.mp4'), 'video/mp4', 'mp4');
    const android = await fixture('gps-android.mp4');
    const damaged = await storeAsBefore(android.subarray(0, 2000), 'video/mp4', 'mp4');
    const missing = await storeAsBefore(undefined, 'video/mp4', 'mp4');
    // As the upload service does after writing rows: the gallery's version moves.
    t.app.deps.lists.forget('memories');
    const gallery = await fetch(`${t.url}/api/memory`);
    const etag = gallery.headers.get('etag') ?? '';

    // The next start cleans them; a damaged or missing file does not keep it from starting.
    const restarted = await buildApp(t.config);
    await restarted.close();

    for (const { id, mediaKey } of [mov, webm]) {
      const cleanedKey = await mediaKeyOf(id);
      expect(cleanedKey).toMatch(/^memories\/[0-9a-f-]+\.(mov|webm)$/);
      expect(cleanedKey).not.toBe(mediaKey);
      const response = await fetch(`${t.url}/media/${cleanedKey ?? ''}`);
      expect(response.status).toBe(200);
      const served = Buffer.from(await response.arrayBuffer());
      for (const needle of LOCATION_AND_DEVICE)
        expect(contains(served, needle), needle).toBe(false);
      expect((await fetch(`${t.url}/media/${mediaKey}`)).status).toBe(404);
    }
    for (const { id, mediaKey } of [clean, damaged, missing]) {
      expect(await mediaKeyOf(id)).toBe(mediaKey);
    }
    expect((await fetch(`${t.url}/media/${damaged.mediaKey}`)).headers.get('content-length')).toBe(
      '2000',
    );
    // The damaged and the missing are tried again at the next start; the others are done.
    const pending = await listUnstrippedVideos(t.app.deps.db, { after: undefined, limit: 10 });
    expect(pending.map((video) => video.id)).toEqual([damaged.id, missing.id]);

    // A gallery that polls with the version it had gets the new addresses: from the server
    // that started after the sweep, and (PostgreSQL) from one that was running, through the
    // events' bus.
    const polled = await buildApp(t.config);
    try {
      const address = await polled.listen({ host: '127.0.0.1', port: 0 });
      const servers = database === 'postgres' ? [address, t.url] : [address];
      for (const server of servers) {
        await vi.waitFor(async () => {
          const poll = await fetch(`${server}/api/memory`, { headers: { 'if-none-match': etag } });
          expect(poll.status).toBe(200);
          const media = memoryListSchema.parse(await poll.json()).map((memory) => memory.media);
          expect(media).toContain(`/media/${(await mediaKeyOf(mov.id)) ?? ''}`);
        });
      }
    } finally {
      await polled.close();
    }

    // Another start changes nothing.
    const keys = await t.storedMediaKeys();
    const rows = await Promise.all([mov, webm, clean].map(({ id }) => mediaKeyOf(id)));
    const again = await buildApp(t.config);
    await again.close();
    expect(await t.storedMediaKeys()).toEqual(keys);
    expect(await Promise.all([mov, webm, clean].map(({ id }) => mediaKeyOf(id)))).toEqual(rows);
  });
});
