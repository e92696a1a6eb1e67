import type { Announcement, AnnouncementCreateRequest } from '../../shared/schemas/announcement.ts';
import { zonedFormatter } from '../../shared/zoned-time.ts';
import type { AppDeps } from '../deps.ts';
import { invalid } from '../http/errors.ts';
import { newId } from '../lib/ids.ts';
import { findRoom, findSession } from '../programme/programme.repository.ts';
import {
  announcementsSince,
  insertAnnouncement,
  sessionIdsOfRoom,
} from './announcement.repository.ts';

type Deps = Pick<AppDeps, 'db' | 'events' | 'clock' | 'settings'>;

/** A day in any time zone began at most 26 hours ago (a 25-hour day, and a margin). */
const LONGEST_DAY_MS = 26 * 3_600_000;
/** Today's list is short; past this, the oldest of the day are left out. */
const MOST_A_DAY = 200;

/**
 * Sends an announcement (decision 239): stored, then told once (`announcementCreated`) to the
 * sockets (everyone, the session's watchers, or the watchers of every session of the room) and
 * to the devices subscribed to Web Push. A session or room that does not exist is a 400.
 */
export async function createAnnouncement(
  deps: Deps,
  input: AnnouncementCreateRequest,
): Promise<Announcement> {
  const sessionId = input.sessionId?.toLowerCase() ?? null;
  const roomId = input.roomId?.toLowerCase() ?? null;
  if (sessionId && !(await findSession(deps.db, sessionId))) throw invalid('unknownSession');
  if (roomId && !(await findRoom(deps.db, roomId))) throw invalid('unknownRoom');
  const announcement: Announcement = {
    _id: newId(),
    text: input.text,
    sessionId,
    roomId,
    createdAt: deps.clock.now().toISOString(),
  };
  await insertAnnouncement(deps.db, announcement);
  const watchedSessions = sessionId
    ? [sessionId]
    : roomId
      ? await sessionIdsOfRoom(deps.db, roomId)
      : null;
  await deps.events.publish({ type: 'announcementCreated', announcement, watchedSessions });
  return announcement;
}

/** Today's announcements, today as the event's time zone has it, newest first. */
export async function todaysAnnouncements(deps: Deps): Promise<Announcement[]> {
  const now = deps.clock.now();
  const dayOf = zonedFormatter(deps.settings.current.timezone);
  const today = dayOf(now).slice(0, 10);
  const recent = await announcementsSince(
    deps.db,
    new Date(now.getTime() - LONGEST_DAY_MS).toISOString(),
    MOST_A_DAY,
  );
  return recent.filter((announcement) => dayOf(announcement.createdAt).slice(0, 10) === today);
}
