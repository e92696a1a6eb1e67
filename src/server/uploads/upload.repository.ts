import type { Transaction } from 'kysely';
import type { Database, Db } from '../db/database.ts';

type Executor = Db | Transaction<Database>;

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

export async function findResumableUpload(
  db: Executor,
  id: string,
): Promise<ResumableUpload | undefined> {
  const row = await db
    .selectFrom('resumable_uploads')
    .select(['id', 'attendee_id', 'size_bytes', 'memory_id'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row
    ? {
        id: row.id,
        attendeeId: row.attendee_id,
        sizeBytes: row.size_bytes,
        memoryId: row.memory_id,
      }
    : undefined;
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
export async function claimResumableUpload(
  trx: Executor,
  id: string,
  memoryId: string,
): Promise<boolean> {
  const result = await trx
    .updateTable('resumable_uploads')
    .set({ memory_id: memoryId })
    .where('id', '=', id)
    .where('memory_id', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Unfinished uploads no byte reached since `cutoff` (an ISO time), oldest first. */
export async function listAbandonedUploads(
  db: Executor,
  cutoff: string,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('resumable_uploads')
    .select('id')
    .where('memory_id', 'is', null)
    .where('touched_at', '<', cutoff)
    .orderBy('touched_at')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

/**
 * Removes an abandoned upload's row, unless a byte arrived meanwhile (then it is not abandoned).
 * Answers whether it was removed.
 */
export async function deleteAbandonedUpload(
  db: Executor,
  id: string,
  cutoff: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('resumable_uploads')
    .where('id', '=', id)
    .where('memory_id', 'is', null)
    .where('touched_at', '<', cutoff)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Forgets finished uploads older than `cutoff`: their memory is long made. */
export async function deleteFinishedUploadsBefore(db: Executor, cutoff: string): Promise<number> {
  const result = await db
    .deleteFrom('resumable_uploads')
    .where('memory_id', 'is not', null)
    .where('touched_at', '<', cutoff)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function deleteResumableUpload(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('resumable_uploads').where('id', '=', id).execute();
}

/** Whether memories of post `postId` exist under another username (it is not theirs to join). */
export async function postOfAnother(
  db: Executor,
  postId: string,
  username: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('memories')
    .select('id')
    .where('post_id', '=', postId)
    .where('username', '!=', username)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
