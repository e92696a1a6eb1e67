import type { Db } from '../db/database.ts';
import { type Executor, countRows, rowsWritten, wroteAny } from '../db/queries.ts';

/**
 * Stores a new attendee; false when the proof of work it joined with made an attendee already
 * (its nonce is unique), and nothing is stored then.
 */
export async function insertAttendee(
  db: Db,
  attendee: { id: string; username: string; createdAt: string; proofNonce: string | null },
): Promise<boolean> {
  const result = await db
    .insertInto('attendees')
    .values({
      id: attendee.id,
      username: attendee.username,
      created_at: attendee.createdAt,
      proof_nonce: attendee.proofNonce,
    })
    .onConflict((conflict) => conflict.column('proof_nonce').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

export function attendeeCount(db: Db): Promise<number> {
  return countRows(db, 'attendees');
}

/** Where an attendee's erasure stands (decision 214). */
export type ErasureState = 'erasing' | 'erased';

/**
 * Marks attendee `id` as being erased from `now` on, once: a second call while it goes on keeps
 * the first time. An attendee whose row is gone (a token older than the database) gets a row,
 * so the mark holds. Answers whether this call began it, or where it stood already.
 */
export async function beginErasure(
  db: Executor,
  id: string,
  now: string,
): Promise<'began' | ErasureState> {
  const row = await db
    .selectFrom('attendees')
    .select(['erasing_since', 'erased_at'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (row?.erased_at) return 'erased';
  if (row?.erasing_since) return 'erasing';
  if (!row) {
    await db
      .insertInto('attendees')
      .values({ id, username: '', created_at: now, proof_nonce: null, erasing_since: now })
      .onConflict((conflict) => conflict.column('id').doNothing())
      .execute();
  }
  const began = await wroteAny(
    db
      .updateTable('attendees')
      .set({ erasing_since: now })
      .where('id', '=', id)
      .where('erasing_since', 'is', null),
  );
  return began || !row ? 'began' : 'erasing';
}

/** The erasure is done: the row keeps its id and the times, and forgets the username. */
export async function finishErasure(db: Executor, id: string, now: string): Promise<void> {
  await db
    .updateTable('attendees')
    .set({ erased_at: now, username: '' })
    .where('id', '=', id)
    .execute();
}

/** The attendees whose erasure began at `since` or later, and where each stands. */
export async function listErasures(
  db: Executor,
  since: string,
): Promise<{ id: string; state: ErasureState }[]> {
  const rows = await db
    .selectFrom('attendees')
    .select(['id', 'erased_at'])
    .where('erasing_since', '>=', since)
    .execute();
  return rows.map((row) => ({ id: row.id, state: row.erased_at ? 'erased' : 'erasing' }));
}

/** When attendee `id` joined, if they are known. */
export async function findAttendeeJoinedAt(db: Executor, id: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('attendees')
    .select('created_at')
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.created_at;
}

/**
 * Forgets every attendee (a purge); answers how many there were. The rows of erased attendees
 * stay: they hold no name, and keep those tokens refused (decision 214).
 */
export function deleteAllAttendees(db: Executor): Promise<number> {
  return rowsWritten(db.deleteFrom('attendees').where('erasing_since', 'is', null));
}
