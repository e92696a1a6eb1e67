import type { Db } from '../db/database.ts';
import { countRows } from '../db/queries.ts';

export async function insertAttendee(
  db: Db,
  attendee: { id: string; username: string; createdAt: string },
): Promise<void> {
  await db
    .insertInto('attendees')
    .values({ id: attendee.id, username: attendee.username, created_at: attendee.createdAt })
    .execute();
}

export function attendeeCount(db: Db): Promise<number> {
  return countRows(db, 'attendees');
}
