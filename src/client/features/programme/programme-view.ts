import type { Room, Schedule, Session } from '../../../shared/schemas/programme.ts';
import { zonedDayKey } from '../../lib/format-time.ts';
import { isOnNow } from './api/sessions-now.ts';

/*
 * How the attendee's screens read the programme (decision 225): now and next per room, the
 * programme's days in the event's time zone, a day's sessions by start time, and where the
 * attendee asked. Pure: every function takes the moment it reads the programme at.
 */

const startOf = (session: Session) => Date.parse(session.startsAt);
const endOf = (session: Session) => Date.parse(session.endsAt);

/** A room's session on now and the one after it (neither cancelled). */
export interface RoomNowNext {
  room: Room;
  now: Session | undefined;
  next: Session | undefined;
}

/**
 * Per room, in the rooms' order: the session on now and the next one to start (cancelled ones
 * are not on, nor next). Rooms with neither (done for the event, or empty) are left out.
 */
export function nowAndNext(schedule: Schedule, now: number): RoomNowNext[] {
  const byRoom = new Map<string, Session[]>();
  for (const session of schedule.sessions) {
    if (session.cancelled) continue;
    const list = byRoom.get(session.roomId) ?? [];
    list.push(session);
    byRoom.set(session.roomId, list);
  }
  const rows: RoomNowNext[] = [];
  for (const room of schedule.rooms) {
    const sessions = (byRoom.get(room._id) ?? []).toSorted(byStart);
    // Overlapping sessions in one room (a programme's mistake): the one that started last.
    const on = sessions.filter((session) => isOnNow(session, now)).at(-1);
    const next = sessions.find((session) => startOf(session) > now && session !== on);
    if (on || next) rows.push({ room, now: on, next });
  }
  return rows;
}

/** By start, then end, then title: the same order on every phone. */
export const byStart = (a: Session, b: Session): number =>
  startOf(a) - startOf(b) || endOf(a) - endOf(b) || a.title.localeCompare(b.title);

/** The days of the programme (`YYYY-MM-DD` in the event's time zone), in order. */
export function programmeDays(schedule: Schedule): string[] {
  const days = new Set(
    schedule.sessions.map((session) => zonedDayKey(session.startsAt, schedule.timezone)),
  );
  return [...days].toSorted();
}

/**
 * The day a programme opens on: today (in the event's zone) when it has sessions, else the next
 * day that has, else its last day (the event is over).
 */
export function defaultDay(days: readonly string[], today: string): string | undefined {
  return days.find((day) => day >= today) ?? days.at(-1);
}

/** Sessions that start at the same time, the parallel talks of one slot. */
export interface TimeSlot {
  startsAt: string;
  sessions: Session[];
}

/**
 * A day's sessions (cancelled ones included), by start time, then in the rooms' order within a
 * slot: the list a phone reads from top to bottom, the room as each session's badge.
 */
export function daySlots(schedule: Schedule, day: string): TimeSlot[] {
  const position = new Map(schedule.rooms.map((room, index) => [room._id, index]));
  const sessions = schedule.sessions
    .filter((session) => zonedDayKey(session.startsAt, schedule.timezone) === day)
    .toSorted(
      (a, b) =>
        startOf(a) - startOf(b) ||
        (position.get(a.roomId) ?? Infinity) - (position.get(b.roomId) ?? Infinity) ||
        byStart(a, b),
    );
  const slots: TimeSlot[] = [];
  for (const session of sessions) {
    const last = slots.at(-1);
    if (last && startOf(session) === Date.parse(last.startsAt)) last.sessions.push(session);
    else slots.push({ startsAt: session.startsAt, sessions: [session] });
  }
  return slots;
}

/**
 * What the attendee's own questions say about a session: its id when the question carries one;
 * else (a question asked of a speaker) the speaker's session on when it was asked, or the next
 * one of theirs to start, or their last one before it.
 */
export interface AskedQuestion {
  /** Null for a question asked of a session's panel (it carries its session, decision 223). */
  speakerId: string | null;
  createdAt: string;
  sessionId?: string | null;
}

/** How many questions the attendee asked per session id. */
export function askedBySession(
  schedule: Schedule,
  questions: readonly AskedQuestion[],
): Map<string, number> {
  const known = new Set(schedule.sessions.map((session) => session._id));
  const bySpeaker = new Map<string, Session[]>();
  for (const session of schedule.sessions.toSorted(byStart)) {
    for (const speakerId of session.speakerIds) {
      const list = bySpeaker.get(speakerId) ?? [];
      list.push(session);
      bySpeaker.set(speakerId, list);
    }
  }
  const counts = new Map<string, number>();
  for (const question of questions) {
    let sessionId: string | undefined;
    if (question.sessionId) {
      sessionId = known.has(question.sessionId) ? question.sessionId : undefined;
    } else {
      const asked = Date.parse(question.createdAt);
      const theirs = (question.speakerId && bySpeaker.get(question.speakerId)) || [];
      sessionId = (
        theirs.find((session) => isOnNow(session, asked)) ??
        theirs.find((session) => startOf(session) > asked) ??
        theirs.at(-1)
      )?._id;
    }
    if (sessionId) counts.set(sessionId, (counts.get(sessionId) ?? 0) + 1);
  }
  return counts;
}

/** The room of each id. */
export const roomsById = (schedule: Schedule): Map<string, Room> =>
  new Map(schedule.rooms.map((room) => [room._id, room]));
