import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.ts';
import type { MediaStore } from '../media/media-store.ts';
import { type DataDirProcesses, removeFilesWrittenBefore } from '../lib/data-dir-processes.ts';
import { type PeriodicSweep, startPeriodicSweep } from '../lib/periodic-sweep.ts';

/** Folders of the store whose files belong to rows: memories and speakers. */
const OWNED_PREFIXES = ['memories/', 'speakers/'] as const;
const BATCH = 500;

/**
 * When the file under `key` was made, from the UUIDv7 the app names every file after (its first
 * 48 bits are milliseconds since 1970); undefined for a key the app did not make.
 */
export function mediaKeyCreatedAt(key: string): number | undefined {
  const match = /^[a-z]+\/([0-9a-f]{8})-([0-9a-f]{4})-7[0-9a-f]{3}-/.exec(key);
  if (!match) return undefined;
  return Number.parseInt(`${match[1]}${match[2]}`, 16);
}

/** Which of `keys` a memory or speaker row names. */
async function referencedKeys(db: Db, keys: string[]): Promise<Set<string>> {
  const [memories, speakers] = await Promise.all([
    db
      .selectFrom('memories')
      .select(['media_key', 'thumbnail_key', 'poster_key', 'original_key'])
      .where((eb) =>
        eb.or([
          eb('media_key', 'in', keys),
          eb('thumbnail_key', 'in', keys),
          eb('poster_key', 'in', keys),
          eb('original_key', 'in', keys),
        ]),
      )
      .execute(),
    db
      .selectFrom('speakers')
      .select(['picture_key', 'avatar_key'])
      .where((eb) => eb.or([eb('picture_key', 'in', keys), eb('avatar_key', 'in', keys)]))
      .execute(),
  ]);
  const found = new Set<string>();
  for (const row of memories) {
    found.add(row.media_key);
    if (row.thumbnail_key) found.add(row.thumbnail_key);
    if (row.poster_key) found.add(row.poster_key);
    if (row.original_key) found.add(row.original_key);
  }
  for (const row of speakers) {
    found.add(row.picture_key);
    if (row.avatar_key) found.add(row.avatar_key);
  }
  return found;
}

/**
 * Deletes the files no row names: what an upload stored before the process died, ahead of its
 * row. Only files made more than `minAgeMs` ago go, so that uploads in flight on other
 * instances keep theirs; keys the app did not make (no UUIDv7) are left alone. Answers the keys
 * deleted.
 */
export async function sweepOrphanMedia(
  deps: { db: Db; media: MediaStore },
  options: { minAgeMs: number; now: number },
): Promise<string[]> {
  const deleted: string[] = [];
  const cutoff = options.now - options.minAgeMs;
  for (const prefix of OWNED_PREFIXES) {
    let batch: string[] = [];
    const sweep = async () => {
      if (batch.length === 0) return;
      const referenced = await referencedKeys(deps.db, batch);
      for (const key of batch) {
        if (referenced.has(key)) continue;
        await deps.media.delete(key);
        deleted.push(key);
      }
      batch = [];
    };
    for await (const key of deps.media.list(prefix)) {
      const createdAt = mediaKeyCreatedAt(key);
      if (createdAt === undefined || createdAt > cutoff) continue;
      batch.push(key);
      if (batch.length >= BATCH) await sweep();
    }
    await sweep();
  }
  return deleted;
}

export interface OrphanSweeperOptions {
  /** The longest an upload can hold a file before its row exists (its whole request, processed). */
  longestUploadMs: number;
  intervalMs: number;
  /** The processes serving this data directory, which may be writing its files. */
  processes: DataDirProcesses;
  /** Whether the store is this data directory's disk (else a bucket other instances share). */
  storeIsLocal: boolean;
  /** Folders of temporary files of this data directory (uploads being received or processed). */
  temporaryDirs: string[];
  now: () => number;
  log: Pick<FastifyBaseLogger, 'warn'>;
}

/**
 * Sweeps what is provably orphaned, at start and then every `intervalMs`: a stored file no row
 * names, and a temporary file, once it is older than the longest upload, or, when no other
 * process serves this data directory, made before this one started (its maker is dead). A
 * file of an upload in flight anywhere is younger than that, so a rolling deploy (two processes
 * on one directory) loses nothing. A failed sweep is logged and tried again at the next one.
 */
export function startOrphanSweeper(
  deps: { db: Db; media: MediaStore },
  options: OrphanSweeperOptions,
): PeriodicSweep {
  const sweepOnce = async (): Promise<number> => {
    const now = options.now();
    const othersAlive = await options.processes.othersAlive();
    const byAge = now - options.longestUploadMs;
    const localCutoff = othersAlive ? byAge : Math.max(byAge, options.processes.startedAt);
    let removed = 0;
    for (const dir of options.temporaryDirs) {
      removed += await removeFilesWrittenBefore(dir, localCutoff);
    }
    const storeCutoff = options.storeIsLocal ? localCutoff : byAge;
    const orphans = await sweepOrphanMedia(deps, { minAgeMs: now - storeCutoff, now });
    if (orphans.length > 0) {
      options.log.warn({ count: orphans.length }, 'removed media files that no row names');
    }
    return removed + orphans.length;
  };
  return startPeriodicSweep(sweepOnce, {
    intervalMs: options.intervalMs,
    log: options.log,
    failure: 'media files without a row could not be swept',
  });
}
