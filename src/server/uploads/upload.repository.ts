import type { ExpressionBuilder } from 'kysely';
import type { Database } from '../db/database.ts';
import { type Executor, exists, idsOf, rowsWritten, wroteAny } from '../db/queries.ts';

/** A resumable upload as the app keeps it beside the tus store's own files. */
export interface ResumableUpload {
  id: string;
  attendeeId: string;
  sizeBytes: number;
  /** The memory it became, once finished. */
  memoryId: string | null;
}

export async function insertResumableUpload(
  db: Executor,
  upload: { id: string; attendeeId: string; sizeBytes: number; now: string },
): Promise<void> {
  await db
    .insertInto('resumable_uploads')
    .values({
      id: upload.id,
      attendee_id: upload.attendeeId,
      size_bytes: upload.sizeBytes,
      created_at: upload.now,
      touched_at: upload.now,
      memory_id: null,
    })
    .execute();
}

export function findResumableUpload(
  db: Executor,
  id: string,
): Promise<ResumableUpload | undefined> {
  return db
    .selectFrom('resumable_uploads')
    .select(['id', 'attendee_id as attendeeId', 'size_bytes as sizeBytes', 'memory_id as memoryId'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Notes that bytes of an unfinished upload are arriving (or just arrived). */
export async function touchResumableUpload(db: Executor, id: string, now: string): Promise<void> {
  await db
    .updateTable('resumable_uploads')
    .set({ touched_at: now })
    .where('id', '=', id)
    .where('memory_id', 'is', null)
    .execute();
}

/**
 * Marks the upload as the memory it became, in that memory's transaction. Answers false when it
 * already became one (a repeated last PATCH, or another instance that saw it finish).
 */
export function claimResumableUpload(
  trx: Executor,
  id: string,
  memoryId: string,
): Promise<boolean> {
  return wroteAny(
    trx
      .updateTable('resumable_uploads')
      .set({ memory_id: memoryId })
      .where('id', '=', id)
      .where('memory_id', 'is', null),
  );
}

/** Unfinished, and no byte reached it since `cutoff` (an ISO time). */
const abandonedBefore =
  (cutoff: string) => (eb: ExpressionBuilder<Database, 'resumable_uploads'>) =>
    eb.and([eb('memory_id', 'is', null), eb('touched_at', '<', cutoff)]);

/** Unfinished uploads no byte reached since `cutoff` (an ISO time), oldest first. */
export function listAbandonedUploads(
  db: Executor,
  cutoff: string,
  limit: number,
): Promise<string[]> {
  return idsOf(
    db
      .selectFrom('resumable_uploads')
      .select('id')
      .where(abandonedBefore(cutoff))
      .orderBy('touched_at')
      .limit(limit),
  );
}

/**
 * Removes an abandoned upload's row, unless a byte arrived meanwhile (then it is not abandoned).
 * Answers whether it was removed.
 */
export function deleteAbandonedUpload(db: Executor, id: string, cutoff: string): Promise<boolean> {
  return wroteAny(
    db.deleteFrom('resumable_uploads').where('id', '=', id).where(abandonedBefore(cutoff)),
  );
}

/** An unfinished upload as the room it takes: its declared size and when a byte last came. */
export interface UnfinishedUpload {
  id: string;
  sizeBytes: number;
  touchedAt: string;
}

/**
 * Unfinished uploads (of one attendee when `attendeeId` is given), least recently touched
 * first; with `idleBefore` (an ISO time), only those no byte reached since.
 */
export function listUnfinishedUploads(
  db: Executor,
  filter: { attendeeId?: string; idleBefore?: string; limit: number },
): Promise<UnfinishedUpload[]> {
  return db
    .selectFrom('resumable_uploads')
    .select(['id', 'size_bytes as sizeBytes', 'touched_at as touchedAt'])
    .where('memory_id', 'is', null)
    .$if(filter.attendeeId !== undefined, (q) =>
      q.where('attendee_id', '=', filter.attendeeId ?? ''),
    )
    .$if(filter.idleBefore !== undefined, (q) =>
      q.where('touched_at', '<', filter.idleBefore ?? ''),
    )
    .orderBy('touched_at')
    .orderBy('id')
    .limit(filter.limit)
    .execute();
}

/**
 * How many unfinished uploads there are (of one attendee when `attendeeId` is given), the bytes
 * they declared together, and when the least recently touched of them last got a byte.
 */
export async function unfinishedUploadTotals(
  db: Executor,
  attendeeId?: string,
): Promise<{ count: number; bytes: number; oldestTouch: string | null }> {
  const row = await db
    .selectFrom('resumable_uploads')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('count'),
      eb.fn.sum<number | string | null>('size_bytes').as('bytes'),
      eb.fn.min<string | null>('touched_at').as('oldestTouch'),
    ])
    .where('memory_id', 'is', null)
    .$if(attendeeId !== undefined, (q) => q.where('attendee_id', '=', attendeeId ?? ''))
    .executeTakeFirstOrThrow();
  return {
    count: Number(row.count),
    bytes: Number(row.bytes ?? 0),
    oldestTouch: row.oldestTouch,
  };
}

/** Forgets finished uploads older than `cutoff`: their memory is long made. */
export function deleteFinishedUploadsBefore(db: Executor, cutoff: string): Promise<number> {
  return rowsWritten(
    db
      .deleteFrom('resumable_uploads')
      .where('memory_id', 'is not', null)
      .where('touched_at', '<', cutoff),
  );
}

/** Forgets an attendee's finished uploads (their memories are theirs to delete apart). */
export function deleteFinishedUploadsOf(db: Executor, attendeeId: string): Promise<number> {
  return rowsWritten(
    db
      .deleteFrom('resumable_uploads')
      .where('attendee_id', '=', attendeeId)
      .where('memory_id', 'is not', null),
  );
}

/** Up to `limit` uploads' ids, finished or not (a purge's next batch). */
export async function listUploadIds(db: Executor, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('resumable_uploads')
    .select('id')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

export async function deleteResumableUpload(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('resumable_uploads').where('id', '=', id).execute();
}

/** Whether memories of post `postId` exist under another username (it is not theirs to join). */
export function postOfAnother(db: Executor, postId: string, username: string): Promise<boolean> {
  return exists(
    db
      .selectFrom('memories')
      .select('id')
      .where('post_id', '=', postId)
      .where('username', '!=', username),
  );
}
