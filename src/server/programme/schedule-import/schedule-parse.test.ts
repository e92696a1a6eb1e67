import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../http/errors.ts';
import type { ParsedSchedule } from './parsed-schedule.ts';
import { parseDuration, zonedTimes } from './parsed-schedule.ts';
import { parseJsonText, parseScheduleJson } from './schedule-json.ts';
import { parseScheduleXml } from './schedule-xml.ts';

const FIXTURES = path.join(import.meta.dirname, '../../../../tests/fixtures/schedules');
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name), 'utf8');
const fromJson = (name: string) => parseScheduleJson(parseJsonText(fixture(name)));

/** The refusal `run` throws: a 400 with the schedule's code, and its message. */
function refusal(run: () => unknown): { status: number; code: string; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof HttpError) {
      return { status: error.statusCode, code: error.code, message: error.message };
    }
    throw error;
  }
  throw new Error('expected a refusal');
}

const byTitle = (schedule: ParsedSchedule, title: string) => {
  const session = schedule.sessions.find((s) => s.title === title);
  if (!session) throw new Error(`no session "${title}"`);
  return session;
};

describe.each([
  ['schedule.xml', () => parseScheduleXml(fixture('pretalx.xml'))],
  ['schedule.json', () => fromJson('pretalx.json')],
])('a pretalx %s', (_format, parse) => {
  it('gives the conference, its time zone and its rooms in order', () => {
    const schedule = parse();
    expect(schedule.title).toBe('DemoCon 2026 & Friends');
    expect(schedule.timezone).toBe('Europe/Berlin');
    expect(schedule.rooms).toEqual(['Main Hall', 'Room 101', 'Lab & Workshop']);
    expect(schedule.sessions).toHaveLength(11);
  });

  it('keeps `&` and `<` in titles and every script in names', () => {
    const schedule = parse();
    expect(byTitle(schedule, 'Parsing <XML> safely').room).toBe('Main Hall');
    expect(byTitle(schedule, 'Rust & WebAssembly').room).toBe('Lab & Workshop');
    const names = new Set(schedule.sessions.flatMap((s) => s.persons.map((p) => p.name)));
    for (const name of ['Zoë Ångström-Müller', 'Мария Иванова', 'ليلى حسن', '山田 太郎']) {
      expect(names).toContain(name);
    }
  });

  it('reads instants with their offsets, across the change to summer time', () => {
    const schedule = parse();
    const opening = byTitle(schedule, 'Opening & Welcome');
    expect(opening.startsAt.toISOString()).toBe('2026-03-27T08:30:00.000Z');
    expect(opening.endsAt.toISOString()).toBe('2026-03-27T09:15:00.000Z');
    // 29 March 2026: Berlin is at +02:00 from 02:00.
    expect(byTitle(schedule, 'Keynote: latency < 1 ms').startsAt.toISOString()).toBe(
      '2026-03-29T08:00:00.000Z',
    );
  });

  it('keeps a panel’s speakers in order, and a talk without speakers', () => {
    const schedule = parse();
    const panel = byTitle(schedule, 'Panel: The future of open source');
    expect(panel.persons.map((p) => p.id)).toEqual(['ADA001', 'LAY314', 'YAM808']);
    expect(byTitle(schedule, 'Coffee break').persons).toEqual([]);
    expect(byTitle(schedule, 'Coffee break').track).toBeNull();
    const zoe = schedule.sessions.filter((s) => s.persons.some((p) => p.id === 'ZOE042'));
    expect(zoe).toHaveLength(2);
  });
});

describe('the two formats of one schedule', () => {
  it('say the same', () => {
    const xml = parseScheduleXml(fixture('pretalx.xml'));
    const json = fromJson('pretalx.json');
    const shape = (schedule: ParsedSchedule) =>
      schedule.sessions.map((s) => ({
        guid: s.guid,
        title: s.title,
        room: s.room,
        startsAt: s.startsAt.toISOString(),
        endsAt: s.endsAt.toISOString(),
        track: s.track,
        persons: s.persons.map((p) => [p.id, p.name]),
      }));
    expect(shape(xml)).toEqual(shape(json));
  });
});

describe('an old frab schedule.xml', () => {
  const schedule = () => parseScheduleXml(fixture('frab-old.xml'));

  it('takes guids that are not UUIDs, single-quoted attributes and no time zone (UTC)', () => {
    const s = schedule();
    expect(s.timezone).toBeNull();
    expect(s.sessions.map((session) => session.guid)).toEqual([
      '6573',
      '31c3-6574',
      '6580',
      '6600',
    ]);
    expect(s.sessions[0]?.startsAt.toISOString()).toBe('2014-12-27T11:00:00.000Z');
    expect(s.sessions[0]?.persons).toEqual([{ id: '4711', name: 'Ada Lovelace', biography: '' }]);
  });

  it('puts a start after midnight on the next morning, and decodes character references', () => {
    const late = schedule().sessions[1];
    expect(late?.title).toBe('Late Night: Grüße aus Hamburg');
    expect(late?.startsAt.toISOString()).toBe('2014-12-28T01:30:00.000Z');
    expect(schedule().sessions[0]?.abstract).toContain('Congress – a new dawn');
  });

  it('uses the description when the abstract is empty', () => {
    expect(schedule().sessions[1]?.abstract).toBe('Runs past midnight, on the next morning.');
  });
});

describe('hostile XML', () => {
  it.each(['xxe.xml', 'billion-laughs.xml'])('%s is refused at once, naming its line', (name) => {
    const started = performance.now();
    const refused = refusal(() => parseScheduleXml(fixture(name)));
    expect(performance.now() - started).toBeLessThan(50);
    expect(refused).toMatchObject({ status: 400, code: 'SCHEDULE_INVALID' });
    expect(refused.message).toContain('line 2: a DOCTYPE declaration is not accepted');
  });

  it('an ENTITY declaration anywhere is refused too', () => {
    const refused = refusal(() =>
      parseScheduleXml('<schedule>\n<x><!ENTITY a "b"></x></schedule>'),
    );
    expect(refused.message).toContain('line 2: a ENTITY declaration');
  });

  it('an unknown entity stays as written, never expanded', () => {
    const xml = fixture('pretalx.xml').replace(
      'Opening &amp; Welcome',
      'Opening &nbsp; &#0; Welcome',
    );
    expect(parseScheduleXml(xml).sessions[0]?.title).toBe('Opening &nbsp; &#0; Welcome');
  });

  it('nesting past what a schedule needs is refused', () => {
    const deep = `<schedule>${'<a>'.repeat(200)}${'</a>'.repeat(200)}</schedule>`;
    expect(refusal(() => parseScheduleXml(deep)).status).toBe(400);
  });
});

describe('a schedule that cannot be imported is a 400 that names where', () => {
  it('a broken XML file names its line', () => {
    const broken = fixture('pretalx.xml').replace('</title>', '</titel>');
    const refused = refusal(() => parseScheduleXml(broken));
    expect(refused).toMatchObject({ status: 400, code: 'SCHEDULE_INVALID' });
    expect(refused.message).toMatch(/^The schedule cannot be imported: line 8: .*'title'/);
  });

  it('a bad duration names the event’s line and the field', () => {
    const lines = fixture('pretalx.xml').split('\n');
    const at = lines.findIndex((line) => line.includes('<duration>00:30</duration>'));
    lines[at] = '<duration>half an hour</duration>';
    const eventLine = lines.slice(0, at).findLastIndex((line) => line.includes('<event ')) + 1;
    const refused = refusal(() => parseScheduleXml(lines.join('\n')));
    expect(refused.message).toBe(
      `The schedule cannot be imported: line ${eventLine}: duration "half an hour" is not a duration (HH:MM or D:HH:MM)`,
    );
  });

  it('broken JSON names its line and column', () => {
    const refused = refusal(() => parseJsonText('{\n  "schedule": {\n    "version": 1,\n  }\n}'));
    expect(refused.message).toMatch(
      /^The schedule cannot be imported: line 4, column 3: not valid JSON/,
    );
  });

  it('a bad JSON field names its path', () => {
    const document = JSON.parse(fixture('pretalx.json')) as {
      schedule: { conference: { days: { rooms: Record<string, { date: string }[]> }[] } };
    };
    const talk = document.schedule.conference.days[1]?.rooms['Room 101']?.[0];
    if (!talk) throw new Error('no talk');
    talk.date = 'tomorrow';
    expect(refusal(() => parseScheduleJson(document)).message).toBe(
      'The schedule cannot be imported: schedule.conference.days[1].rooms["Room 101"][0]: date "tomorrow" is not an ISO 8601 date and time',
    );
  });

  it.each([
    [
      'no conference (XML)',
      () => parseScheduleXml('<schedule><day date="2026-01-01"/></schedule>'),
      'conference: the file has no conference',
    ],
    [
      'no day (XML)',
      () => parseScheduleXml('<schedule><conference><title>x</title></conference></schedule>'),
      'days: the file lists no day',
    ],
    [
      'a foreign XML file',
      () => parseScheduleXml('<rss><channel/></rss>'),
      'line 1: the root element is not <schedule>',
    ],
    [
      'no conference (JSON)',
      () => parseScheduleJson({ schedule: { version: '1' } }),
      'conference: the file has no conference',
    ],
    [
      'no day (JSON)',
      () => parseScheduleJson({ schedule: { conference: { title: 'x', days: [] } } }),
      'days: the file lists no day',
    ],
    [
      'a foreign JSON file',
      () => parseScheduleJson({ hello: 'world' }),
      'schedule: the file has no schedule',
    ],
    ['an empty JSON file', () => parseScheduleJson([]), 'the file: must be an object'],
    [
      'an unknown time zone',
      () =>
        parseScheduleJson({
          schedule: { conference: { time_zone_name: 'Mars/Olympus', days: [{}] } },
        }),
      'schedule.conference: time_zone_name "Mars/Olympus" is not a time zone',
    ],
  ])('%s', (_name, run, message) => {
    expect(refusal(run).message).toBe(`The schedule cannot be imported: ${message}`);
  });

  it('a guid listed twice', () => {
    const xml = fixture('pretalx.xml').replace(
      "guid='8d8154ef-3071-54a8-acfe-8d6410269869'",
      "guid='3517053f-596f-5c6a-be95-ceb4c423fa20'",
    );
    expect(refusal(() => parseScheduleXml(xml)).message).toMatch(
      /guid 3517053f-596f-5c6a-be95-ceb4c423fa20 is listed already \(line 23\)$/,
    );
  });
});

describe('durations and wall-clock times', () => {
  it.each([
    ['00:45', 45],
    ['01:30', 90],
    ['1:02:00', 26 * 60],
    ['0:00', 0],
  ])('%s is %i minutes', (text, minutes) => {
    expect(parseDuration(text)).toBe(minutes);
  });

  it.each(['45', '1h', '00:75', '', '1:2:3:4'])('"%s" is not a duration', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });

  it('a wall-clock time in a zone is that zone’s instant, either side of a change', () => {
    const berlin = zonedTimes('Europe/Berlin');
    expect(berlin({ year: 2026, month: 3, day: 29, hour: 1, minute: 30 }).toISOString()).toBe(
      '2026-03-29T00:30:00.000Z',
    );
    expect(berlin({ year: 2026, month: 3, day: 29, hour: 3, minute: 30 }).toISOString()).toBe(
      '2026-03-29T01:30:00.000Z',
    );
    expect(
      zonedTimes(null)({ year: 2026, month: 3, day: 29, hour: 3, minute: 30 }).toISOString(),
    ).toBe('2026-03-29T03:30:00.000Z');
  });
});
