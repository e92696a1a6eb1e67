import type { Executor } from '../db/queries.ts';

/**
 * Notes the files of rows an erasure is deleting, in the rows' own transaction (decision 214):
 * once the rows are gone, these keys are the only record of the files still to delete.
 */
export async function insertErasureFiles(
  db: Executor,
  attendeeId: string,
  keys: readonly string[],
  now: string,
): Promise<void> {
  if (keys.length === 0) return;
  await db
    .insertInto('erasure_files')
    .values(keys.map((key) => ({ key, attendee_id: attendeeId, created_at: now })))
    .onConflict((conflict) => conflict.column('key').doNothing())
    .execute();
}

/**
 * The files an attendee's erasure (or, with `attendeeId` undefined, a purge) still has to
 * delete, by key, `limit` after the key `after`.
 */
export async function listErasureFiles(
  db: Executor,
  attendeeId: string | undefined,
  page: { limit: number; after?: string | undefined },
): Promise<string[]> {
  let query = db.selectFrom('erasure_files').select('key').orderBy('key').limit(page.limit);
  if (attendeeId !== undefined) query = query.where('attendee_id', '=', attendeeId);
  if (page.after !== undefined) query = query.where('key', '>', page.after);
  const rows = await query.execute();
  return rows.map((row) => row.key);
}

/** Forgets files that were deleted from the store. */
export async function deleteErasureFiles(db: Executor, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.deleteFrom('erasure_files').where('key', 'in', keys).execute();
}

/**
 * When the last purge removed the attendees (the admin's log entry of it is written in the same transaction):
 * tokens issued before it are refused (decision 218).
 */
export async function lastPurgeAt(db: Executor): Promise<string | undefined> {
  const row = await db
    .selectFrom('admin_audit')
    .select((eb) => eb.fn.max('created_at').as('at'))
    .where('action', '=', 'event.purge')
    .executeTakeFirst();
  return row?.at ?? undefined;
}
