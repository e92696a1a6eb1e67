import type { Announcement } from '../../shared/schemas/announcement.ts';
import type { AnnouncementsTable } from '../db/database.ts';
import type { Executor } from '../db/queries.ts';

/* The announcements' SQL (decision 239). Times are UTC instants, `Date.toISOString()`. */

const toAnnouncement = (row: AnnouncementsTable): Announcement => ({
  _id: row.id,
  text: row.text,
  sessionId: row.session_id,
  roomId: row.room_id,
  createdAt: row.created_at,
});

export async function insertAnnouncement(db: Executor, announcement: Announcement): Promise<void> {
  await db
    .insertInto('announcements')
    .values({
      id: announcement._id,
      text: announcement.text,
      session_id: announcement.sessionId,
      room_id: announcement.roomId,
      created_at: announcement.createdAt,
    })
    .execute();
}

/** The announcements made at `since` or later, newest first, at most `limit`. */
export async function announcementsSince(
  db: Executor,
  since: string,
  limit: number,
): Promise<Announcement[]> {
  const rows = await db
    .selectFrom('announcements')
    .selectAll()
    .where('created_at', '>=', since)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(toAnnouncement);
}

/** The ids of a room's sessions (cancelled ones too: their watchers are in the room). */
export async function sessionIdsOfRoom(db: Executor, roomId: string): Promise<string[]> {
  const rows = await db.selectFrom('sessions').select('id').where('room_id', '=', roomId).execute();
  return rows.map((row) => row.id);
}
