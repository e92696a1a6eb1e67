import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import type { Memory } from '../../src/shared/schemas/memory.ts';
import type { Db } from '../../src/server/db/database.ts';
import { newId } from '../../src/server/lib/ids.ts';
import type { ListCache } from '../../src/server/lists/list-cache.ts';
import type { MediaStore } from '../../src/server/media/media-store.ts';
import { insertMemories } from '../../src/server/memories/memory.repository.ts';

/** A small real MP4 (one second of ffmpeg's test pattern), committed as a fixture. */
export const FIXTURE_VIDEO = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../fixtures/admin/clip.mp4',
);

/** A portrait HEVC clip as an iPhone sends it, committed as a fixture. */
const FIXTURE_HEVC = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../fixtures/portrait-hevc.mov',
);

export interface MemorySeed {
  username: string;
  text: string;
  kind?: 'image' | 'video';
  /**
   * A video (the portrait HEVC clip) whose playable copy another instance is still making: it
   * has its poster, and stays `processing` (this server leaves it to that instance).
   */
  processing?: boolean;
  /** Colour of the generated image, so tiles can be told apart. */
  color?: string;
  /** `pending`: awaiting the admin's approval. Published by default. */
  status?: 'published' | 'pending';
}

/** The fixture clip, stored as an upload leaves a video. */
async function storeVideo(media: MediaStore, id: string) {
  const bytes = await fs.readFile(FIXTURE_VIDEO);
  const mediaKey = `memories/${id}.mp4`;
  await media.put(mediaKey, bytes, 'video/mp4');
  const size = { width: 160, height: 120, sizeBytes: bytes.length };
  return { contentType: 'video/mp4', mediaKey, thumbnailKey: null, ...size };
}

/** The HEVC clip with a poster and tile picture, as an upload leaves a video being processed. */
async function storeProcessingVideo(media: MediaStore, id: string, color = '#f08c00') {
  const bytes = await fs.readFile(FIXTURE_HEVC);
  const mediaKey = `memories/${id}.mov`;
  const posterKey = `memories/${id}-poster.jpg`;
  const thumbnailKey = `memories/${id}-thumb.webp`;
  const poster = sharp({ create: { width: 180, height: 320, channels: 3, background: color } });
  await media.put(mediaKey, bytes, 'video/quicktime');
  await media.put(posterKey, await poster.clone().jpeg().toBuffer(), 'image/jpeg');
  await media.put(thumbnailKey, await poster.clone().webp().toBuffer(), 'image/webp');
  return {
    contentType: 'video/quicktime',
    mediaKey,
    thumbnailKey,
    posterKey,
    originalKey: mediaKey,
    processing: true,
    width: 180,
    height: 320,
    sizeBytes: bytes.length,
  };
}

/** A plain-coloured picture and its WebP thumbnail, stored as an upload leaves a photo. */
async function storeImage(media: MediaStore, id: string, color = '#5c7cfa') {
  const image = sharp({ create: { width: 320, height: 240, channels: 3, background: color } });
  const png = await image.clone().png().toBuffer();
  const thumbnail = await image.clone().resize(160, 120).webp().toBuffer();
  const mediaKey = `memories/${id}.png`;
  const thumbnailKey = `memories/${id}-thumb.webp`;
  await media.put(mediaKey, png, 'image/png');
  await media.put(thumbnailKey, thumbnail, 'image/webp');
  const size = { width: 320, height: 240, sizeBytes: png.length };
  return { contentType: 'image/png', mediaKey, thumbnailKey, ...size };
}

/**
 * Stores memories as an upload would leave them: real files in the media store (an image with
 * its WebP thumbnail, or an MP4) and one row each, through the app's repository. Seeds are
 * stored in order, so the last one is the newest. Given a running app's list cache, tells it
 * the gallery changed, as the upload path's event does.
 */
export async function seedMemories(
  deps: { db: Db; media: MediaStore; lists?: Pick<ListCache, 'forget'> },
  seeds: MemorySeed[],
): Promise<Memory[]> {
  const stored: Memory[] = [];
  for (const seed of seeds) {
    const id = newId();
    const file =
      seed.kind === 'video'
        ? seed.processing
          ? await storeProcessingVideo(deps.media, id, seed.color)
          : await storeVideo(deps.media, id)
        : await storeImage(deps.media, id, seed.color);
    stored.push(
      ...(await insertMemories(deps.db, [
        {
          id,
          postId: newId(),
          username: seed.username,
          text: seed.text,
          ...file,
          originalKey: file.mediaKey,
          createdAt: new Date().toISOString(),
          metadataStripped: true,
          status: seed.status ?? 'published',
        },
      ])),
    );
  }
  // The processing ones are held by another instance for the next hour.
  const held = seeds.flatMap((seed, index) => (seed.processing ? [stored[index]?._id ?? ''] : []));
  if (held.length > 0) {
    await deps.db
      .updateTable('memories')
      .set({
        render_owner: 'another-instance',
        render_lease_until: new Date(Date.now() + 3_600_000).toISOString(),
      })
      .where('id', 'in', held)
      .execute();
  }
  deps.lists?.forget('memories');
  return stored;
}
