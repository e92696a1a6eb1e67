import type { Session } from '../../../shared/schemas/programme.ts';
import { zonedFormatter } from '../../../shared/zoned-time.ts';

/**
 * What a room's projector shows at an instant (decision 226):
 * - `on`: the session running now (the one that started last, should two overlap);
 * - `next`: between talks, or before the first one, the next session of the same day;
 * - `ended`: after the day's last talk, with the next day's first talk if there is one.
 * Cancelled sessions are left out: a room never shows one as running or next.
 */
export type RoomNow =
  | { kind: 'on'; session: Session }
  | { kind: 'next'; session: Session }
  | { kind: 'ended'; next: Session | undefined };

interface Span {
  session: Session;
  start: number;
  end: number;
}

/** The room's sessions that take place, as instants, by start. */
function spansOf(sessions: readonly Session[], roomId: string): Span[] {
  const spans: Span[] = [];
  for (const session of sessions) {
    if (session.roomId !== roomId || session.cancelled) continue;
    const start = Date.parse(session.startsAt);
    const end = Date.parse(session.endsAt);
    if (Number.isNaN(start) || Number.isNaN(end) || end <= start) continue;
    spans.push({ session, start, end });
  }
  return spans.sort((a, b) => a.start - b.start || a.end - b.end);
}

/** The last formatter made: a page follows one event, in one time zone. */
let formatter: { timeZone: string; format: (instant: number) => string } | undefined;

/** Instants as ISO 8601 in `timeZone`, with its offset at each (`2026-03-29T03:30:00+02:00`). */
function zoned(timeZone: string): (instant: number) => string {
  if (formatter?.timeZone !== timeZone) {
    formatter = { timeZone, format: zonedFormatter(timeZone) };
  }
  return formatter.format;
}

/** The event's day (`YYYY-MM-DD`) at `instant`, in the event's time zone. */
export const eventDay = (instant: number, timeZone: string): string =>
  zoned(timeZone)(instant).slice(0, 10);

/** Minutes the zone is ahead of UTC at `instant` (`+02:00` is 120). */
function offsetAt(instant: number, timeZone: string): number {
  const zone = zoned(timeZone)(instant).slice(-6);
  const sign = zone.startsWith('-') ? -1 : 1;
  return sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
}

/**
 * The instant the event's day `day` (`YYYY-MM-DD`) begins in `timeZone`: its local midnight,
 * with the offset in force at that midnight (not the one of the talks later that day, which a
 * change to summer time at 02:00 makes different). Where a zone skips midnight itself, the
 * first instant of the day.
 */
export function startOfEventDay(day: string, timeZone: string): number {
  const [year = 0, month = 1, date = 1] = day.split('-').map(Number);
  const wall = Date.UTC(year, month - 1, date);
  let instant = wall - offsetAt(wall, timeZone) * 60_000;
  // Once more with the offset of the instant found: right on both sides of a change.
  instant = wall - offsetAt(instant, timeZone) * 60_000;
  // A zone whose clocks go forward at midnight has no 00:00 that day: the instant found is the
  // gap's length before the change, and the day starts at the change (01:00 local).
  if (eventDay(instant, timeZone) !== day) {
    const gap = offsetAt(instant + 3 * 60 * 60_000, timeZone) - offsetAt(instant, timeZone);
    return instant + gap * 60_000;
  }
  return instant;
}

/** What the room `roomId` shows at `now` (milliseconds since the epoch). */
export function roomNow(
  sessions: readonly Session[],
  roomId: string,
  now: number,
  timeZone: string,
): RoomNow {
  const spans = spansOf(sessions, roomId);
  let running: Span | undefined;
  for (const span of spans) {
    if (span.start <= now && now < span.end) running = span;
  }
  if (running) return { kind: 'on', session: running.session };
  const next = spans.find((span) => span.start > now);
  if (next && eventDay(next.start, timeZone) === eventDay(now, timeZone)) {
    return { kind: 'next', session: next.session };
  }
  return { kind: 'ended', next: next?.session };
}

/**
 * The first instant after `now` at which `roomNow` may answer differently: the next start or end
 * of one of the room's sessions, or, after the day's last talk, the start of the day of the next
 * one (the end screen gives way to "Next"). Undefined when nothing is left to change.
 */
export function nextChange(
  sessions: readonly Session[],
  roomId: string,
  now: number,
  timeZone: string,
): number | undefined {
  let soonest: number | undefined;
  const consider = (instant: number) => {
    if (instant > now && (soonest === undefined || instant < soonest)) soonest = instant;
  };
  const spans = spansOf(sessions, roomId);
  for (const span of spans) {
    consider(span.start);
    consider(span.end);
  }
  const shown = roomNow(sessions, roomId, now, timeZone);
  if (shown.kind === 'ended' && shown.next) {
    consider(startOfEventDay(eventDay(Date.parse(shown.next.startsAt), timeZone), timeZone));
  }
  return soonest;
}
