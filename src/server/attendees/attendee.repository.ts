import type { Db } from '../db/database.ts';
import { countRows } from '../db/queries.ts';

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
