import { LIMITS } from '../../../shared/constants.ts';
import { cleanName } from '../../../shared/names.ts';
import { PROGRAMME_LIMITS } from '../../../shared/schemas/programme.ts';
import { isTimeZone } from '../../../shared/zoned-time.ts';
import {
  type LocalTime,
  type ParsedPerson,
  type ParsedSchedule,
  type ParsedSession,
  oneLine,
  parseClock,
  parseDate,
  parseDateTime,
  parseDuration,
  scheduleProblem,
  zonedTimes,
} from './parsed-schedule.ts';

/** Longest texts kept from a schedule, the programme's own; longer ones are cut with an ellipsis. */
const SCHEDULE_TEXT_MAX = {
  title: PROGRAMME_LIMITS.titleMax,
  abstract: PROGRAMME_LIMITS.abstractMax,
  track: PROGRAMME_LIMITS.trackMax,
  room: PROGRAMME_LIMITS.roomNameMax,
};

/** Control characters but tab and newline: no schedule text keeps them. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/gu;

/** Text cut to `max` characters (whole code points), with an ellipsis when it was longer. */
function cut(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

const line = (text: string, max: number) => cut(oneLine(text.replace(CONTROL, ' ')), max);
const prose = (text: string, max: number) =>
  cut(text.replace(/\r\n?/g, '\n').replace(CONTROL, '').trim(), max);

/** A person as a format reads them, before checking. */
export interface RawPerson {
  code?: string | undefined;
  guid?: string | undefined;
  id?: string | undefined;
  name?: string | undefined;
  biography?: string | undefined;
}

/** An event as a format reads it, with where it sits in the file (a line or a JSON path). */
export interface RawEvent {
  where: string;
  guid?: string | undefined;
  id?: string | undefined;
  /** Its start with date (and offset, in pretalx's files). */
  date?: string | undefined;
  start?: string | undefined;
  duration?: string | undefined;
  room: string;
  title?: string | undefined;
  abstract?: string | undefined;
  description?: string | undefined;
  track?: string | undefined;
  persons: RawPerson[];
  /** The day the event is listed under: its date and, when known, when the day starts. */
  day: { date?: string | undefined; start?: string | undefined; where: string };
}

/** The conference and the days as a format reads them, before checking. */
export interface RawSchedule {
  /** Undefined when the file has no conference: a foreign file. */
  conference:
    { where: string; title?: string | undefined; timezone?: string | undefined } | undefined;
  dayCount: number;
  rooms: string[];
  events: RawEvent[];
}

const present = (value: string | undefined): value is string =>
  value !== undefined && value.trim() !== '';

/** The schedule's id of a person: pretalx's `code`, else the `guid`, else frab's numeric `id`. */
function personOf(raw: RawPerson, where: string): ParsedPerson {
  const id = [raw.code, raw.guid, raw.id].find(present)?.trim();
  const name = line(cleanName(raw.name ?? ''), LIMITS.speakerNameMax);
  if (!id) throw scheduleProblem(where, `the person "${name}" has no code, guid or id`);
  if (!name) throw scheduleProblem(where, `the person ${id} has no name`);
  return {
    id: id.slice(0, 100),
    name,
    biography: prose(raw.biography ?? '', LIMITS.speakerBioMax),
  };
}

/** When an event starts: its `date`, else its day's date and its `start` in the schedule's zone. */
function startOf(event: RawEvent, local: (time: LocalTime) => Date): Date {
  if (present(event.date)) {
    const date = parseDateTime(event.date, local);
    if (!date) {
      throw scheduleProblem(event.where, `date "${event.date}" is not an ISO 8601 date and time`);
    }
    return date;
  }
  const clock = present(event.start) ? parseClock(event.start) : undefined;
  if (!clock) {
    throw scheduleProblem(event.where, `start "${event.start ?? ''}" is not a time (HH:MM)`);
  }
  const day = parseDate(event.day.date ?? '');
  if (!day) {
    throw scheduleProblem(
      event.day.where,
      `date "${event.day.date ?? ''}" is not a date (YYYY-MM-DD)`,
    );
  }
  let starts = local({ ...day, ...clock });
  // A frab day runs past midnight: a start before the day's own start is on the next morning.
  const dayStart = present(event.day.start) ? parseDateTime(event.day.start, local) : undefined;
  if (dayStart && starts < dayStart) starts = local({ ...day, day: day.day + 1, ...clock });
  return starts;
}

function sessionOf(event: RawEvent, local: (time: LocalTime) => Date): ParsedSession {
  const room = line(event.room, SCHEDULE_TEXT_MAX.room);
  if (!room) throw scheduleProblem(event.where, 'the event has no room');
  const guid = [event.guid, event.id].find(present)?.trim();
  if (!guid) throw scheduleProblem(event.where, 'the event has no guid');
  const title = line(event.title ?? '', SCHEDULE_TEXT_MAX.title);
  if (!title) throw scheduleProblem(event.where, `the event ${guid} has no title`);
  const minutes = parseDuration(event.duration ?? '');
  if (minutes === undefined) {
    throw scheduleProblem(
      event.where,
      `duration "${event.duration ?? ''}" is not a duration (HH:MM or D:HH:MM)`,
    );
  }
  const startsAt = startOf(event, local);
  const abstract = present(event.abstract) ? event.abstract : (event.description ?? '');
  const track = line(event.track ?? '', SCHEDULE_TEXT_MAX.track);
  // One person listed twice on a talk is one speaker of it.
  const persons = new Map<string, ParsedPerson>();
  for (const raw of event.persons) {
    const person = personOf(raw, event.where);
    if (!persons.has(person.id)) persons.set(person.id, person);
  }
  return {
    guid: guid.slice(0, 200),
    title,
    abstract: prose(abstract, SCHEDULE_TEXT_MAX.abstract),
    track: track || null,
    room,
    startsAt,
    // A zero-length slot (a marker) still has to end after it starts.
    endsAt: new Date(startsAt.getTime() + Math.max(1, minutes) * 60_000),
    persons: [...persons.values()],
  };
}

/**
 * Checks what a format read and makes it the normalised schedule: a file without a conference
 * or without a day is refused (an empty or foreign file never empties the programme), as is an
 * event without guid, title, duration or a readable start, and a guid listed twice.
 */
export function normaliseSchedule(raw: RawSchedule): ParsedSchedule {
  if (!raw.conference) throw scheduleProblem('conference', 'the file has no conference');
  if (raw.dayCount === 0) throw scheduleProblem('days', 'the file lists no day');
  const zone = raw.conference.timezone?.trim() || null;
  if (zone && !isTimeZone(zone)) {
    throw scheduleProblem(raw.conference.where, `time_zone_name "${zone}" is not a time zone`);
  }
  const local = zonedTimes(zone);
  const sessions: ParsedSession[] = [];
  const seen = new Map<string, string>();
  for (const event of raw.events) {
    const session = sessionOf(event, local);
    const first = seen.get(session.guid);
    if (first !== undefined) {
      throw scheduleProblem(event.where, `guid ${session.guid} is listed already (${first})`);
    }
    seen.set(session.guid, event.where);
    sessions.push(session);
  }
  const rooms = [
    ...new Set([
      ...raw.rooms.map((room) => line(room, SCHEDULE_TEXT_MAX.room)),
      ...sessions.map((session) => session.room),
    ]),
  ].filter(Boolean);
  return {
    title: line(raw.conference.title ?? '', SCHEDULE_TEXT_MAX.title),
    timezone: zone,
    rooms,
    sessions,
  };
}
