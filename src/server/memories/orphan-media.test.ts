import { Readable } from 'node:stream';
import sharp from 'sharp';
import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { memoryPostResponseSchema } from '../../shared/schemas/memory.ts';
import { testDatabases, useTestApp } from '../../../tests/support/test-app.ts';
import { mediaKeyCreatedAt, sweepOrphanMedia } from './orphan-media.ts';

const HOUR = 3_600_000;

describe('mediaKeyCreatedAt', () => {
  it('reads the time out of an app-made key, and nothing out of any other', () => {
    const msecs = Date.UTC(2026, 10, 22, 9, 30);
    expect(mediaKeyCreatedAt(`memories/${uuidv7({ msecs })}.png`)).toBe(msecs);
    expect(mediaKeyCreatedAt(`speakers/${uuidv7({ msecs })}-avatar.webp`)).toBe(msecs);
    expect(mediaKeyCreatedAt('memories/big.mp4')).toBeUndefined();
    expect(mediaKeyCreatedAt('memories/0190f7d2-aaaa-4aaa-8aaa-aaaaaaaaaaaa.png')).toBeUndefined();
  });
});

describe.each(testDatabases)('sweeping orphan media (%s)', (database) => {
  const t = useTestApp({ database });

  it('deletes old files no row names, and keeps rows’ files, recent files and foreign keys', async () => {
    const form = new FormData();
    form.append('caption', 'kept');
    form.append('username', 'ada');
    // Larger than the display rendition: the memory has a master of its own.
    const png = await sharp({
      create: { width: 2100, height: 8, channels: 3, background: '#f00' },
    })
      .png()
      .toBuffer();
    form.append('files', new Blob([new Uint8Array(png)]), 'a.png');
    const posted = await fetch(`${t.url}/api/memories`, { method: 'POST', body: form });
    const [memory] = memoryPostResponseSchema.parse(await posted.json()).memories;
    const now = Date.now();
    const put = (key: string) => t.app.deps.media.put(key, Readable.from([png]), 'image/png');
    const oldOrphan = `memories/${uuidv7({ msecs: now - 2 * HOUR })}.png`;
    const oldSpeakerOrphan = `speakers/${uuidv7({ msecs: now - 2 * HOUR })}-avatar.webp`;
    const recentOrphan = `memories/${uuidv7({ msecs: now - 60_000 })}.png`;
    for (const key of [oldOrphan, oldSpeakerOrphan, recentOrphan, 'memories/manual.mp4']) {
      await put(key);
    }

    const sweptShared = await sweepOrphanMedia(t.app.deps, { minAgeMs: HOUR, now });
    expect(sweptShared.sort()).toEqual([oldOrphan, oldSpeakerOrphan].sort());
    const sweptAlone = await sweepOrphanMedia(t.app.deps, { minAgeMs: 0, now });
    expect(sweptAlone).toEqual([recentOrphan]);

    const kept = (memory?.media ?? '').replace('/media/', '');
    const thumb = (memory?.thumbnail ?? '').replace('/media/', '');
    const original = (memory?.original ?? '').replace('/media/', '');
    expect(original).not.toBe(kept);
    expect(await t.storedMediaKeys('memories/')).toEqual(
      [kept, thumb, original, 'memories/manual.mp4'].sort(),
    );
    expect(await t.storedMediaKeys('speakers/')).toEqual([]);
  });
});
