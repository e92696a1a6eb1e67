import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Db } from '../db/database.ts';
import type { Events } from '../events/events.ts';
import { newId } from '../lib/ids.ts';
import type { MediaStore } from '../media/media-store.ts';
import { MalformedVideoError, stripVideoMetadata } from '../media/video-metadata.ts';
import {
  type UnstrippedVideo,
  listUnstrippedVideos,
  markMetadataStripped,
} from './memory.repository.ts';

/** Rows read per query; the videos themselves are cleaned one at a time. */
const BATCH = 100;

export interface VideoSweepResult {
  /** Memories now pointing at a cleaned copy of their video; the old file is deleted. */
  cleaned: string[];
  /** Memories whose video had nothing to blank: marked as clean, file kept. */
  unchanged: string[];
  /** Memories left as they were (file missing or unreadable, store failing): tried again next start. */
  skipped: { id: string; reason: string }[];
  /**
   * Old files of cleaned memories that could not be deleted. No row names them any more: the
   * orphan sweep of the next start removes them (decision 081).
   */
  kept: string[];
}

type Outcome = 'cleaned' | 'unchanged' | 'gone' | { cleanedButKept: string };

/**
 * Cleans one stored video: a copy is staged, its metadata blanked; when anything was blanked the
 * copy is stored under a new key (media URLs are cached as immutable: the bytes under a key never
 * change), the row is pointed at it and the old file deleted.
 */
async function stripOne(
  deps: { db: Db; media: MediaStore },
  video: UnstrippedVideo,
  stagingDir: string,
): Promise<Outcome> {
  const ext = path.extname(video.mediaKey);
  const staged = path.join(stagingDir, `${newId()}${ext}`);
  try {
    await pipeline(
      await deps.media.read(video.mediaKey),
      fs.createWriteStream(staged, { flags: 'wx' }),
    );
    const blanked = await stripVideoMetadata(staged);
    const { size } = await fsp.stat(staged);
    if (blanked.length === 0) {
      const marked = await markMetadataStripped(deps.db, {
        id: video.id,
        previousKey: video.mediaKey,
        mediaKey: video.mediaKey,
        sizeBytes: size,
      });
      return marked ? 'unchanged' : 'gone';
    }
    const mediaKey = `memories/${newId()}${ext}`;
    await deps.media.put(mediaKey, fs.createReadStream(staged), video.contentType);
    let moved = false;
    try {
      moved = await markMetadataStripped(deps.db, {
        id: video.id,
        previousKey: video.mediaKey,
        mediaKey,
        sizeBytes: size,
      });
    } finally {
      // Deleted meanwhile, or cleaned by another instance: the copy is not needed.
      if (!moved) await deps.media.delete(mediaKey);
    }
    if (!moved) return 'gone';
    try {
      await deps.media.delete(video.mediaKey);
    } catch {
      return { cleanedButKept: video.mediaKey };
    }
    return 'cleaned';
  } finally {
    await fsp.rm(staged, { force: true });
  }
}

/**
 * Blanks the location and camera metadata of the videos stored before uploads did it (decision
 * 095), one video at a time, and marks each row so that the next start does not read it again.
 * A video that cannot be cleaned is left as it is and reported; the sweep goes on with the next.
 * When any row changed, `storedVideosCleaned` is published once, at the end.
 */
export async function stripStoredVideos(
  deps: { db: Db; media: MediaStore; events: Events },
  options: { stagingDir: string },
): Promise<VideoSweepResult> {
  const result = await stripEach(deps, options);
  const count = result.cleaned.length + result.unchanged.length;
  if (count > 0) await deps.events.publish({ type: 'storedVideosCleaned', count });
  return result;
}

async function stripEach(
  deps: { db: Db; media: MediaStore },
  options: { stagingDir: string },
): Promise<VideoSweepResult> {
  const result: VideoSweepResult = { cleaned: [], unchanged: [], skipped: [], kept: [] };
  await fsp.mkdir(options.stagingDir, { recursive: true });
  let after: string | undefined;
  for (;;) {
    const videos = await listUnstrippedVideos(deps.db, { after, limit: BATCH });
    for (const video of videos) {
      after = video.id;
      try {
        const outcome = await stripOne(deps, video, options.stagingDir);
        if (typeof outcome === 'object') {
          result.cleaned.push(video.id);
          result.kept.push(outcome.cleanedButKept);
        } else if (outcome !== 'gone') {
          result[outcome].push(video.id);
        }
      } catch (error) {
        const reason =
          error instanceof MalformedVideoError
            ? `damaged video: ${error.message}`
            : error instanceof Error
              ? error.message
              : String(error);
        result.skipped.push({ id: video.id, reason });
      }
    }
    if (videos.length < BATCH) return result;
  }
}
