import type { Room, Session } from '../../../shared/schemas/programme.ts';
import { zonedFormatter } from '../../../shared/zoned-time.ts';

/**
 * The console's programme times: a session's start and end are typed as wall times of the
 * event's time zone (`2026-03-27T10:00`, as a `datetime-local` input holds them) and sent as
 * instants with that zone's offset at that moment.
 */
export interface ZoneClock {
  /** The instant as ISO 8601 with the zone's offset (`2026-03-27T10:00:00+01:00`). */
  iso: (instant: Date | number | string) => string;
  /** The instant's wall time in the zone, to the minute (`2026-03-27T10:00`). */
  wall: (instant: Date | number | string) => string;
  /** The instant a wall time of the zone names, or undefined for one that is not a time. */
  instant: (wall: string) => number | undefined;
  /** The zone's offset at the instant, as `UTC+01:00` (`UTC` itself at zero). */
  offset: (instant: Date | number | string) => string;
  /** The day an instant falls on in the zone, as `Friday 27 March`. */
  dayLabel: (instant: Date | number | string) => string;
}

const WALL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** Milliseconds the zone's wall clock is ahead of UTC at `time`, read from `iso`'s answer. */
const offsetMs = (iso: (instant: number) => string, time: number) =>
  Date.parse(`${iso(time).slice(0, 19)}Z`) - time;

/** The clock of one time zone; make one per zone and reuse it (formatters are costly). */
export function zoneClock(timeZone: string): ZoneClock {
  const iso = zonedFormatter(timeZone);
  const day = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'long',
    day: 'numeric',
    month: 'long',
  });
  return {
    iso,
    wall: (instant) => iso(instant).slice(0, 16),
    instant: (wall) => {
      const match = WALL.exec(wall);
      if (!match) return undefined;
      const [, year, month, date, hour, minute] = match.map(Number);
      const guess = Date.UTC(year ?? 0, (month ?? 1) - 1, date ?? 1, hour ?? 0, minute ?? 0);
      if (Number.isNaN(guess)) return undefined;
      // The offset at the wall time read as UTC, then at the instant that gives: the second is
      // right on either side of a daylight-saving change.
      const first = guess - offsetMs(iso, guess);
      return guess - offsetMs(iso, first);
    },
    offset: (instant) => {
      const zone = iso(instant).slice(-6);
      return zone === '+00:00' ? 'UTC' : `UTC${zone}`;
    },
    dayLabel: (instant) => day.format(new Date(instant)),
  };
}

/** One day of the programme in the zone: its key (`2026-03-27`), label and sessions by room. */
export interface ProgrammeDay {
  key: string;
  label: string;
  rooms: { room: Room; sessions: Session[] }[];
}

/**
 * The sessions by day (in the event's zone) and, within a day, by room in the rooms' order;
 * rooms without a session that day are left out. Sessions keep the schedule's order (by start).
 */
export function programmeDays(
  rooms: readonly Room[],
  sessions: readonly Session[],
  clock: ZoneClock,
): ProgrammeDay[] {
  const days = new Map<string, { label: string; byRoom: Map<string, Session[]> }>();
  for (const session of sessions) {
    const key = clock.wall(session.startsAt).slice(0, 10);
    let day = days.get(key);
    if (!day) {
      day = { label: clock.dayLabel(session.startsAt), byRoom: new Map() };
      days.set(key, day);
    }
    const list = day.byRoom.get(session.roomId);
    if (list) list.push(session);
    else day.byRoom.set(session.roomId, [session]);
  }
  return [...days.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([key, { label, byRoom }]) => ({
      key,
      label,
      rooms: rooms.flatMap((room) => {
        const list = byRoom.get(room._id);
        return list ? [{ room, sessions: list }] : [];
      }),
    }));
}

/** The IANA time zones this browser knows, with `UTC` first. */
export function timeZoneNames(): string[] {
  const names = Intl.supportedValuesOf('timeZone');
  return ['UTC', ...names.filter((name) => name !== 'UTC')];
}
