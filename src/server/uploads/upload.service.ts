import path from 'node:path';
import type { Readable } from 'node:stream';
import { FileStore } from '@tus/file-store';
import { type DataStore, type Upload } from '@tus/server';
import type { FastifyBaseLogger } from 'fastify';
import { type UploadMetadata, uploadMetadataSchema } from '../../shared/schemas/upload.ts';
import { type Config, longestUploadMs } from '../config.ts';
import type { AppDeps } from '../deps.ts';
import { HttpError, invalid, notFound, tooLarge, tooManyRequests } from '../http/errors.ts';
import { type PeriodicSweep, startPeriodicSweep } from '../lib/periodic-sweep.ts';
import { type UploadedFile, displayName, readHead } from '../http/transport/multipart.ts';
import { deleteIdempotencyKeysBefore } from '../memories/idempotency.repository.ts';
import { AlreadyPostedError, postMemory } from '../memories/memory.service.ts';
import type { UploadContext } from '../memories/memory-upload.ts';
import {
  claimResumableUpload,
  deleteAbandonedUpload,
  deleteFinishedUploadsOf,
  deleteResumableUpload,
  deleteFinishedUploadsBefore,
  findResumableUpload,
  insertResumableUpload,
  listAbandonedUploads,
  listUnfinishedUploads,
  unfinishedUploadTotals,
} from './upload.repository.ts';

/** An unfinished upload no byte reached for this long is abandoned, and removed. */
export const ABANDONED_AFTER_MS = 24 * 3_600_000;
/** Finished uploads (for late HEADs) and `Idempotency-Key`s are kept this long. */
export const KEPT_FOR_MS = 48 * 3_600_000;

/** The tus store: files on disk under `DATA_DIR/resumable`, or the media bucket with S3. */
export async function openResumableStore(config: Config): Promise<DataStore> {
  if (config.mediaStore === 's3') {
    // Loaded only when used, as the media store's S3 client is.
    const { S3Store } = await import('@tus/s3-store');
    const { s3 } = config;
    return new S3Store({
      // Chunks of a few MB each become one part; a smaller tail waits as an incomplete part.
      partSize: 8 * 1024 * 1024,
      s3ClientConfig: {
        bucket: s3.bucket,
        region: s3.region,
        forcePathStyle: s3.forcePathStyle,
        // Parts go as plain bodies, not aws-chunked with a checksum trailer, which not every
        // S3-compatible store reads (the bytes would be stored with the framing in them).
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        ...(s3.endpoint ? { endpoint: s3.endpoint } : {}),
        ...(s3.accessKeyId && s3.secretAccessKey
          ? { credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } }
          : {}),
      },
    });
  }
  return new FileStore({ directory: path.join(config.dataDir, 'resumable') });
}

/** The post fields of an upload's metadata, or a 400 naming what is wrong. */
export function parseUploadMetadata(metadata: Record<string, string | null> | undefined) {
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(metadata ?? {})) {
    if (value !== null) values[key] = value;
  }
  const parsed = uploadMetadataSchema.safeParse(values);
  if (!parsed.success) {
    throw invalid('schema', parsed.error.issues[0]?.message, 'upload');
  }
  return parsed.data;
}

/** A finished upload's bytes as a post's file: its first bytes (for the type), then all. */
async function openStored(
  name: string,
  stream: Readable,
  localPath: string | undefined,
): Promise<UploadedFile> {
  const iterator = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const first = await readHead(iterator);
  const { head } = first;
  let { ended } = first;
  async function* body(): AsyncGenerator<Buffer> {
    yield head;
    while (!ended) {
      const next = await iterator.next();
      if (next.done) break;
      yield next.value;
    }
  }
  const skip = async () => {
    ended = true;
    stream.destroy();
    await Promise.resolve();
  };
  return {
    field: 'files',
    name: displayName(name),
    head,
    body: body(),
    skip,
    ...(localPath ? { localPath } : {}),
  };
}

/** A finished upload's bytes: both stores read them, though `DataStore` does not say so. */
const readStored = async (store: DataStore, id: string): Promise<Readable> =>
  (store as DataStore & { read(id: string): Readable | Promise<Readable> }).read(id);

export type FinishResult = { memoryId: string } | { refused: HttpError };

/**
 * Turns finished uploads into memories, exactly once: the file goes through the same pipeline
 * as `POST /api/memories` (`postMemory`), and the memory's transaction claims the upload's row,
 * so a repeated last PATCH, a HEAD after a lost answer, or another instance that saw the same
 * upload finish makes no second one. Refused files leave nothing: no memory, no upload.
 */
export function createFinisher(
  deps: Pick<AppDeps, 'db' | 'events' | 'clock' | 'settings' | 'renditions'>,
  context: UploadContext,
  store: DataStore,
  log: Pick<FastifyBaseLogger, 'warn'>,
) {
  /** Finishes in flight on this instance, by upload id: a second caller waits for the first. */
  const running = new Map<string, Promise<FinishResult>>();

  const removeStored = async (id: string) => {
    await store.remove(id).catch((error: unknown) => {
      // Already gone (another instance removed it), or the sweep will.
      log.warn({ err: error, upload: id }, 'a finished upload could not be removed');
    });
  };

  const finishOnce = async (upload: Upload): Promise<FinishResult> => {
    const known = await findResumableUpload(deps.db, upload.id);
    if (known?.memoryId) return { memoryId: known.memoryId };
    if (!known) throw notFound('upload');
    let fields: UploadMetadata;
    try {
      fields = parseUploadMetadata(upload.metadata);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      return { refused: error };
    }
    try {
      const { memories } = await postMemory(
        deps,
        context,
        async (storeFile) => {
          await storeFile(
            await openStored(
              fields.filename,
              await readStored(store, upload.id),
              // On disk the finished file is copied by the kernel, never read through the process.
              store instanceof FileStore ? path.join(store.directory, upload.id) : undefined,
            ),
          );
          return { caption: fields.caption, username: fields.username };
        },
        {
          postId: fields.postId,
          // The attendee whose token made the upload owns the memory (decision 142).
          owner: { id: known.attendeeId, username: fields.username },
          alongside: async (trx, { memories: inserted }) => {
            const [memory] = inserted;
            if (!memory || !(await claimResumableUpload(trx, upload.id, memory._id))) {
              throw new AlreadyPostedError();
            }
          },
        },
      );
      await removeStored(upload.id);
      return { memoryId: memories[0]?._id ?? '' };
    } catch (error) {
      if (error instanceof AlreadyPostedError) {
        const first = await findResumableUpload(deps.db, upload.id);
        if (first?.memoryId) return { memoryId: first.memoryId };
      }
      // A file the pipeline refuses (its bytes are no picture or video, it is damaged, too
      // large): the upload goes, so nothing of it is left. A store or database failure keeps
      // it, and the next HEAD or PATCH tries again.
      if (error instanceof HttpError && error.statusCode < 500) return { refused: error };
      throw error;
    }
  };

  return {
    /** Makes the finished `upload` a memory, or answers why it was refused. */
    finish(upload: Upload): Promise<FinishResult> {
      let entry = running.get(upload.id);
      if (!entry) {
        entry = finishOnce(upload)
          .then(async (result) => {
            if ('refused' in result) {
              // A refused file leaves nothing behind: not its bytes, not its row.
              await removeStored(upload.id);
              await deleteResumableUpload(deps.db, upload.id);
            }
            return result;
          })
          .finally(() => running.delete(upload.id));
        running.set(upload.id, entry);
      }
      return entry;
    },
  };
}

/**
 * Removes an unfinished upload no byte reached since `cutoff` (an ISO time): its row first, only
 * if still untouched (a PATCH arriving after it finds no upload), then its files. Answers whether
 * it was removed (false: a byte came meanwhile, or it is finished or gone).
 */
async function removeIdleUpload(
  deps: Pick<AppDeps, 'db'>,
  store: DataStore,
  id: string,
  cutoff: string,
): Promise<boolean> {
  if (!(await deleteAbandonedUpload(deps.db, id, cutoff))) return false;
  await removeUploadFiles(store, id);
  return true;
}

/**
 * How long an unfinished upload must have gone without a byte before it may be removed to make
 * room for another: longer than any PATCH can last and its memory take to be made, so none is
 * in flight on any instance (each PATCH marks its row when it starts and when it ends).
 */
export const reclaimableAfterMs = (config: Pick<Config, 'requestTimeoutMs'>): number =>
  longestUploadMs(config);

/** Seconds until an upload last touched at `touchedAt` may be removed to make room (at least 1). */
const secondsUntilIdle = (touchedAt: string | null, idleMs: number, now: number): number =>
  Math.max(1, Math.ceil(((touchedAt ? Date.parse(touchedAt) : now) + idleMs - now) / 1000));

const megabytes = (bytes: number): string => {
  const mb = bytes / (1024 * 1024);
  return mb >= 10 ? String(Math.round(mb)) : String(Math.round(mb * 10) / 10 || 0.1);
};

/**
 * The room unfinished uploads take (decision 192): an attendee holds at most `perAttendee` at
 * once, and all of them together reserve at most `budgetBytes`, counted by their declared
 * `Upload-Length`, whether their bytes wait on disk or in the bucket. `reserve` writes a new
 * upload's row when it fits; when it does not, the least recently touched unfinished uploads idle
 * for `reclaimableAfterMs` go first (the attendee's own for their count, anyone's for the bytes),
 * exactly as the sweep removes abandoned ones; else it refuses: 429 `TOO_MANY_UPLOADS` or 413
 * `UPLOADS_FULL`, with `Retry-After`, and nothing is written.
 */
export function createUploadRoom(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  store: DataStore,
  config: Pick<Config, 'unfinishedUploads' | 'requestTimeoutMs'>,
) {
  const { perAttendee, budgetBytes } = config.unfinishedUploads;
  const idleMs = reclaimableAfterMs(config);
  /** Reservations of this instance, one at a time: two never count the same free room. */
  let queue: Promise<unknown> = Promise.resolve();

  const tooMany = (held: number, oldestTouch: string | null, now: number) =>
    tooManyRequests('unfinishedUploads', held).retryAfter(
      secondsUntilIdle(oldestTouch, idleMs, now),
    );
  const full = (size: number, oldestTouch: string | null, now: number) =>
    tooLarge('uploadsFull', megabytes(size)).retryAfter(secondsUntilIdle(oldestTouch, idleMs, now));

  /** Removes idle uploads, least recently touched first, until `enough` says so. */
  async function reclaim(
    filter: { attendeeId?: string },
    cutoff: string,
    enough: () => boolean,
    removed: (upload: { sizeBytes: number }) => void,
  ): Promise<void> {
    while (!enough()) {
      const idle = await listUnfinishedUploads(deps.db, {
        ...filter,
        idleBefore: cutoff,
        limit: 20,
      });
      for (const upload of idle) {
        if (enough()) return;
        if (await removeIdleUpload(deps, store, upload.id, cutoff)) removed(upload);
      }
      if (idle.length < 20) return;
    }
  }

  async function reserveNow(upload: { id: string; attendeeId: string; sizeBytes: number }) {
    const now = deps.clock.now().getTime();
    const cutoff = new Date(now - idleMs).toISOString();
    const own = await unfinishedUploadTotals(deps.db, upload.attendeeId);
    let held = own.count;
    await reclaim(
      { attendeeId: upload.attendeeId },
      cutoff,
      () => held < perAttendee,
      () => (held -= 1),
    );
    if (held >= perAttendee) {
      const { oldestTouch } = await unfinishedUploadTotals(deps.db, upload.attendeeId);
      throw tooMany(held, oldestTouch, now);
    }
    let reserved = (await unfinishedUploadTotals(deps.db)).bytes;
    await reclaim(
      {},
      cutoff,
      () => reserved + upload.sizeBytes <= budgetBytes,
      ({ sizeBytes }) => (reserved -= sizeBytes),
    );
    if (reserved + upload.sizeBytes > budgetBytes) {
      throw full(upload.sizeBytes, (await unfinishedUploadTotals(deps.db)).oldestTouch, now);
    }
    const at = new Date(now).toISOString();
    await insertResumableUpload(deps.db, { ...upload, now: at });
    // Another instance may have reserved at the same moment: counted again with every row, so of
    // two that do not both fit at least one is refused (at worst both), never both kept.
    const [mine, all] = await Promise.all([
      unfinishedUploadTotals(deps.db, upload.attendeeId),
      unfinishedUploadTotals(deps.db),
    ]);
    if (mine.count > perAttendee || all.bytes > budgetBytes) {
      await deleteResumableUpload(deps.db, upload.id);
      throw mine.count > perAttendee
        ? tooMany(mine.count - 1, mine.oldestTouch, now)
        : full(upload.sizeBytes, all.oldestTouch, now);
    }
  }

  return {
    /** Writes the row of a new upload if there is room for it, else refuses it (see above). */
    reserve(upload: { id: string; attendeeId: string; sizeBytes: number }): Promise<void> {
      const run = queue.then(() => reserveNow(upload));
      queue = run.catch(() => undefined);
      return run;
    },
  };
}

/**
 * Removes abandoned uploads: unfinished ones no byte reached for `ABANDONED_AFTER_MS` (their
 * files on disk or their parts in the bucket, then their rows), and forgets finished uploads
 * and `Idempotency-Key`s after `KEPT_FOR_MS`. An upload in progress is never touched: each PATCH
 * marks its row when it starts and when it ends, and no request lasts a day, so a row untouched
 * for a day has no request in flight on any instance. Answers how many uploads were removed.
 */
export async function sweepAbandonedUploads(
  deps: Pick<AppDeps, 'db'>,
  store: DataStore,
  now: number,
): Promise<number> {
  const cutoff = new Date(now - ABANDONED_AFTER_MS).toISOString();
  let removed = 0;
  for (;;) {
    const ids = await listAbandonedUploads(deps.db, cutoff, 100);
    for (const id of ids) {
      if (await removeIdleUpload(deps, store, id, cutoff)) removed += 1;
    }
    if (ids.length < 100) break;
  }
  const kept = new Date(now - KEPT_FOR_MS).toISOString();
  await deleteFinishedUploadsBefore(deps.db, kept);
  await deleteIdempotencyKeysBefore(deps.db, kept);
  return removed;
}

/**
 * Removes every upload attendee `attendeeId` started (decision 214): an unfinished one's files
 * first, then its row, so one whose files could not be removed keeps its row for the next try;
 * finished ones are forgotten. Answers how many unfinished uploads were removed, and how many
 * could not be.
 */
export async function removeUploadsOf(
  deps: Pick<AppDeps, 'db'>,
  store: DataStore,
  attendeeId: string,
): Promise<{ removed: number; failed: number }> {
  let removed = 0;
  let failed = 0;
  const unfinished = await listUnfinishedUploads(deps.db, { attendeeId, limit: 1000 });
  for (const upload of unfinished) {
    try {
      await removeUploadFiles(store, upload.id);
    } catch {
      failed += 1;
      continue;
    }
    await deleteResumableUpload(deps.db, upload.id);
    removed += 1;
  }
  await deleteFinishedUploadsOf(deps.db, attendeeId);
  return { removed, failed };
}

/** An upload's files in the store, whatever is left of them (an S3 tail part too). */
export async function removeUploadFiles(store: DataStore, id: string): Promise<void> {
  const withTail = store as DataStore & { deleteIncompletePart?: (id: string) => Promise<void> };
  if (typeof withTail.deleteIncompletePart === 'function') {
    await withTail.deleteIncompletePart(id).catch(() => undefined);
  }
  await store.remove(id).catch((error: unknown) => {
    // Never created (its process died between the row and the file), or gone already.
    if ((error as { status_code?: number }).status_code !== 404) throw error;
  });
}

/** Sweeps abandoned uploads at start and then every `intervalMs`; a failure is logged. */
export function startAbandonedUploadSweeper(
  deps: Pick<AppDeps, 'db'>,
  store: DataStore,
  options: { intervalMs: number; now: () => number; log: Pick<FastifyBaseLogger, 'warn'> },
): PeriodicSweep {
  return startPeriodicSweep(() => sweepAbandonedUploads(deps, store, options.now()), {
    intervalMs: options.intervalMs,
    log: options.log,
    failure: 'abandoned uploads could not be swept',
  });
}
