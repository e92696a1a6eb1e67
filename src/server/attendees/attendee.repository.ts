import type { Db } from '../db/database.ts';

export async function insertAttendee(
  db: Db,
  attendee: { id: string; username: string; createdAt: string },
): Promise<void> {
  await db
    .insertInto('attendees')
    .values({ id: attendee.id, username: attendee.username, created_at: attendee.createdAt })
    .execute();
}

export async function attendeeCount(db: Db): Promise<number> {
  const row = await db
    .selectFrom('attendees')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
