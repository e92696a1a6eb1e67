/**
 * What a pretalx or frab schedule says, whichever format it came in: the one shape the import
 * works from (decision 212).
 */

import { badRequest } from '../../http/errors.ts';

/** A person of the schedule: a speaker to match or create. */
export interface ParsedPerson {
  /** The schedule's id of the person: pretalx's `code`, else its `guid`, else frab's `id`. */
  id: string;
  name: string;
  biography: string;
}

export interface ParsedSession {
  /** The event's `guid` (frab's numeric `id` when an old file has no guid). */
  guid: string;
  title: string;
  abstract: string;
  track: string | null;
  /** The room's name, as the schedule spells it. */
  room: string;
  startsAt: Date;
  endsAt: Date;
  /** In the schedule's order: a panel keeps it. */
  persons: ParsedPerson[];
}

export interface ParsedSchedule {
  title: string;
  /** The IANA time zone the schedule names (`time_zone_name`), or null when it names none. */
  timezone: string | null;
  /** Room names, in the order the schedule lists them. */
  rooms: string[];
  sessions: ParsedSession[];
}

/** A schedule that cannot be imported: a 400 naming where (a line, a field) and what. */
export const scheduleProblem = (where: string, what: string) =>
  badRequest('schedule', `${where}: ${what}`);

/** Per time zone, a formatter that tells the wall-clock time there at an instant. */
function wallClock(zone: string): (instant: number) => number {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  return (instant) => {
    const parts: Record<string, number> = {};
    for (const part of format.formatToParts(instant)) parts[part.type] = Number(part.value);
    return Date.UTC(
      parts.year ?? 1970,
      (parts.month ?? 1) - 1,
      parts.day ?? 1,
      parts.hour ?? 0,
      parts.minute ?? 0,
      parts.second ?? 0,
    );
  };
}

/**
 * Turns the wall-clock times of one schedule into instants, in its time zone (UTC when it names
 * none). A time skipped by a clock change is read as after the change.
 */
export function zonedTimes(zone: string | null): (local: LocalTime) => Date {
  if (!zone || zone === 'UTC') return (local) => new Date(utcOf(local));
  const clock = wallClock(zone);
  return (local) => {
    const asUtc = utcOf(local);
    let instant = asUtc - (clock(asUtc) - asUtc);
    // Around a clock change the first guess sits on the other side of it: correct once.
    instant = asUtc - (clock(instant) - instant);
    return new Date(instant);
  };
}

export interface LocalTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second?: number;
}

const utcOf = (t: LocalTime) =>
  Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second ?? 0);

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const CLOCK = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/;
/** An ISO 8601 date and time; the offset is optional (a wall-clock time without it). */
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** A calendar date `YYYY-MM-DD`, or undefined. */
export function parseDate(text: string): { year: number; month: number; day: number } | undefined {
  const match = DATE.exec(text.trim());
  if (!match) return undefined;
  const [, year, month, day] = match.map(Number) as [number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  return { year, month, day };
}

/** A time of day `HH:MM` (or `HH:MM:SS`), or undefined. */
export function parseClock(
  text: string,
): { hour: number; minute: number; second: number } | undefined {
  const match = CLOCK.exec(text.trim());
  if (!match) return undefined;
  const [hour = 0, minute = 0, second = 0] = match
    .slice(1)
    .map((part: string | undefined) => Number(part ?? 0));
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  return { hour, minute, second };
}

/**
 * An ISO 8601 date and time: with an offset, that instant; without, the wall-clock time in the
 * schedule's zone (`local`). Undefined when it is not one.
 */
export function parseDateTime(text: string, local: (time: LocalTime) => Date): Date | undefined {
  const match = DATE_TIME.exec(text.trim());
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second, offset] = match;
  const time: LocalTime = {
    year: Number(year),
    month: Number(month),
    day: Number(day),
    hour: Number(hour),
    minute: Number(minute),
    second: Number(second ?? 0),
  };
  if (time.month < 1 || time.month > 12 || time.day < 1 || time.day > 31 || time.hour > 23) {
    return undefined;
  }
  if (time.minute > 59 || (time.second ?? 0) > 59) return undefined;
  if (offset === undefined) return local(time);
  if (offset === 'Z') return new Date(utcOf(time));
  const sign = offset.startsWith('-') ? -1 : 1;
  const digits = offset.slice(1).replace(':', '');
  const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2));
  return new Date(utcOf(time) - sign * minutes * 60_000);
}

/**
 * A duration as pretalx and frab write it: `HH:MM`, `D:HH:MM` for a day or more, in minutes;
 * undefined when it is not one.
 */
export function parseDuration(text: string): number | undefined {
  const parts = text.trim().split(':');
  if (parts.length < 2 || parts.length > 3 || parts.some((part) => !/^\d{1,3}$/.test(part))) {
    return undefined;
  }
  const [minutes = 0, hours = 0, days = 0] = parts.map(Number).reverse();
  if (minutes > 59) return undefined;
  return (days * 24 + hours) * 60 + minutes;
}

/** Text of the schedule, its whitespace runs made single spaces (titles, names, tracks). */
export const oneLine = (text: string): string => text.replace(/\s+/gu, ' ').trim();
