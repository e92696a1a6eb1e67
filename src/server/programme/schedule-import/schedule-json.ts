import type { ParsedSchedule } from './parsed-schedule.ts';
import { oneLine, scheduleProblem } from './parsed-schedule.ts';
import { type RawEvent, type RawPerson, normaliseSchedule } from './schedule-normalise.ts';

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A field's text: strings as they are, numbers written out, anything else absent. */
function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** A JSON path's next step: `.name` for plain names, `["Saal 1"]` for others, `[3]` for indexes. */
const step = (path: string, key: string | number) =>
  typeof key === 'number'
    ? `${path}[${key}]`
    : /^[A-Za-z_$][\w$]*$/.test(key)
      ? `${path}.${key}`
      : `${path}[${JSON.stringify(key)}]`;

/** `value` at `path` must be a list (absent counts as empty); else a 400 naming the path. */
function list(value: unknown, path: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw scheduleProblem(path, 'must be a list');
  return value;
}

function object(value: unknown, path: string): JsonObject {
  if (!isObject(value)) throw scheduleProblem(path, 'must be an object');
  return value;
}

/** The JSON text parsed, or a 400 naming the line and column where it stops being JSON. */
export function parseJsonText(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch (error) {
    const message = error instanceof Error ? error.message : 'not JSON';
    // V8 names the position, except at the end of the text ("Unexpected end of JSON input").
    const position = Number(/position (\d+)/.exec(message)?.[1] ?? body.length);
    const before = body.slice(0, position);
    const where = `line ${before.split('\n').length}, column ${before.length - before.lastIndexOf('\n')}`;
    const reason = oneLine(
      message.replace(/\s*\(line.*\)$/, '').replace(/ in JSON at position \d+/, ''),
    );
    throw scheduleProblem(where, `not valid JSON (${reason})`);
  }
}

/** Reads a pretalx or frab `schedule.json` (already parsed), naming the JSON path of a problem. */
export function parseScheduleJson(document: unknown): ParsedSchedule {
  const root = object(document, 'the file');
  const schedule = isObject(root.schedule) ? root.schedule : undefined;
  if (!schedule) throw scheduleProblem('schedule', 'the file has no schedule');
  const conference = isObject(schedule.conference) ? schedule.conference : undefined;
  const base = 'schedule.conference';
  const days = conference ? list(conference.days, `${base}.days`) : [];
  const events: RawEvent[] = [];
  days.forEach((day, dayIndex) => {
    const dayPath = step(`${base}.days`, dayIndex);
    const dayObject = object(day, dayPath);
    const rooms = dayObject.rooms ?? {};
    const roomsPath = step(dayPath, 'rooms');
    for (const [roomName, talks] of Object.entries(object(rooms, roomsPath))) {
      const roomPath = step(roomsPath, roomName);
      list(talks, roomPath).forEach((talk, index) => {
        const where = step(roomPath, index);
        const event = object(talk, where);
        const persons = list(event.persons, step(where, 'persons')).map(
          (person, personIndex): RawPerson => {
            const entry = object(person, step(step(where, 'persons'), personIndex));
            return {
              code: text(entry.code),
              guid: text(entry.guid),
              id: text(entry.id),
              name: text(entry.public_name) ?? text(entry.name),
              biography: text(entry.biography),
            };
          },
        );
        events.push({
          where,
          guid: text(event.guid),
          id: text(event.id),
          date: text(event.date),
          start: text(event.start),
          duration: text(event.duration),
          room: oneLine(text(event.room) ?? roomName) || oneLine(roomName),
          title: text(event.title),
          abstract: text(event.abstract),
          description: text(event.description),
          track: text(event.track),
          persons,
          day: { date: text(dayObject.date), start: text(dayObject.day_start), where: dayPath },
        });
      });
    }
  });
  const roomOrder = conference ? list(conference.rooms, `${base}.rooms`) : [];
  return normaliseSchedule({
    conference: conference && {
      where: base,
      title: text(conference.title),
      timezone: text(conference.time_zone_name),
    },
    dayCount: days.length,
    rooms: roomOrder
      .map((room) => (isObject(room) ? oneLine(text(room.name) ?? '') : ''))
      .filter(Boolean),
    events,
  });
}
