import { describe, expect, it } from 'vitest';
import type { Schedule, Session } from '../../../shared/schemas/programme.ts';
import {
  askedBySession,
  daySlots,
  defaultDay,
  nowAndNext,
  programmeDays,
  roomsById,
} from './programme-view.ts';

const id = (n: number) => `00000000-0000-7000-8000-${String(n).padStart(12, '0')}`;
const [hall, studio, attic] = [id(1), id(2), id(3)];
const [ada, grace, linus] = [id(11), id(12), id(13)];

let next = 100;
/** A session in Berlin's winter time (+01:00) on the given day, from `from` to `to` (hh:mm). */
function session(
  roomId: string,
  day: string,
  from: string,
  to: string,
  extra: Partial<Session> = {},
): Session {
  next += 1;
  return {
    _id: id(next),
    guid: null,
    title: `Talk ${next}`,
    abstract: '',
    roomId,
    startsAt: `${day}T${from}:00+01:00`,
    endsAt: `${day}T${to}:00+01:00`,
    speakerIds: [],
    track: null,
    cancelled: false,
    ...extra,
  };
}

const keynote = session(hall, '2026-03-14', '09:00', '10:00', { speakerIds: [ada] });
const hallTwo = session(hall, '2026-03-14', '10:15', '11:00', { speakerIds: [grace] });
const hallThree = session(hall, '2026-03-14', '11:15', '12:00', { cancelled: true });
const hallFour = session(hall, '2026-03-14', '12:15', '13:00', { speakerIds: [ada, linus] });
const studioOne = session(studio, '2026-03-14', '09:00', '09:45');
const studioTwo = session(studio, '2026-03-14', '10:15', '11:00', { speakerIds: [ada] });
// Late on the 14th in Berlin: already the 15th in UTC+9, still the 14th here.
const lateNight = session(studio, '2026-03-14', '23:00', '23:55');
const dayTwo = session(hall, '2026-03-15', '09:30', '10:30', { speakerIds: [grace] });

const schedule: Schedule = {
  timezone: 'Europe/Berlin',
  version: 7,
  rooms: [
    { _id: hall, name: 'Hall', position: 0 },
    { _id: studio, name: 'Studio', position: 1 },
    { _id: attic, name: 'Attic', position: 2 },
  ],
  // Not in order: the server's order is not relied on.
  sessions: [dayTwo, hallFour, studioTwo, keynote, lateNight, hallThree, studioOne, hallTwo],
};

const at = (iso: string) => Date.parse(iso);

describe('now and next per room', () => {
  it('gives each room its session on now and the next one, in the rooms’ order', () => {
    const rows = nowAndNext(schedule, at('2026-03-14T09:30:00+01:00'));
    expect(rows.map((row) => [row.room.name, row.now?._id, row.next?._id])).toEqual([
      ['Hall', keynote._id, hallTwo._id],
      ['Studio', studioOne._id, studioTwo._id],
    ]);
  });

  it('has nothing on in a break, only what comes next; a talk ends at its end', () => {
    const rows = nowAndNext(schedule, at('2026-03-14T10:00:00+01:00'));
    expect(rows.map((row) => [row.room.name, row.now?._id, row.next?._id])).toEqual([
      ['Hall', undefined, hallTwo._id],
      ['Studio', undefined, studioTwo._id],
    ]);
  });

  it('skips a cancelled talk: neither on nor next', () => {
    const rows = nowAndNext(schedule, at('2026-03-14T10:30:00+01:00'));
    expect(rows[0]?.next?._id).toBe(hallFour._id);
    const during = nowAndNext(schedule, at('2026-03-14T11:30:00+01:00'));
    expect(during[0]?.now).toBeUndefined();
  });

  it('leaves out rooms with nothing more, and is empty once the event is over', () => {
    const evening = nowAndNext(schedule, at('2026-03-14T20:00:00+01:00'));
    expect(evening.map((row) => [row.room.name, row.next?._id])).toEqual([
      ['Hall', dayTwo._id],
      ['Studio', lateNight._id],
    ]);
    expect(nowAndNext(schedule, at('2026-03-16T09:00:00+01:00'))).toEqual([]);
  });
});

describe('the programme’s days', () => {
  it('are the days of the starts in the event’s zone, in order', () => {
    expect(programmeDays(schedule)).toEqual(['2026-03-14', '2026-03-15']);
    // The same programme read in Tokyo's zone has its late talk on the 15th.
    const tokyo = { ...schedule, timezone: 'Asia/Tokyo', sessions: [lateNight] };
    expect(programmeDays(tokyo)).toEqual(['2026-03-15']);
  });

  it('open on today, else the next day with sessions, else the last day', () => {
    const days = ['2026-03-14', '2026-03-15', '2026-03-17'];
    expect(defaultDay(days, '2026-03-15')).toBe('2026-03-15');
    expect(defaultDay(days, '2026-03-16')).toBe('2026-03-17');
    expect(defaultDay(days, '2026-03-01')).toBe('2026-03-14');
    expect(defaultDay(days, '2026-04-01')).toBe('2026-03-17');
    expect(defaultDay([], '2026-04-01')).toBeUndefined();
  });

  it('list a day by start time, parallel talks in the rooms’ order, cancelled ones kept', () => {
    const slots = daySlots(schedule, '2026-03-14');
    expect(slots.map((slot) => slot.sessions.map((item) => item._id))).toEqual([
      [keynote._id, studioOne._id],
      [hallTwo._id, studioTwo._id],
      [hallThree._id],
      [hallFour._id],
      [lateNight._id],
    ]);
    expect(slots[0]?.startsAt).toBe(keynote.startsAt);
    expect(daySlots(schedule, '2026-03-15').flatMap((slot) => slot.sessions)).toEqual([dayTwo]);
    expect(daySlots(schedule, '2026-03-20')).toEqual([]);
  });
});

describe('the attendee’s own questions', () => {
  it('count where the question says, else in the speaker’s talk on, next or last', () => {
    const counts = askedBySession(schedule, [
      // Asked of Ada during the keynote, and during the break after it (her next talk).
      { speakerId: ada, createdAt: '2026-03-14T09:10:00.000Z' },
      { speakerId: ada, createdAt: '2026-03-14T09:05:00.000Z' },
      { speakerId: ada, createdAt: '2026-03-14T09:10:00+01:00' },
      // Asked of Grace after her last talk.
      { speakerId: grace, createdAt: '2026-03-16T08:00:00.000Z' },
      // Questions that name their session count there, whatever their speaker had on: one
      // asked of Ada during her keynote, and one of a panel as a whole.
      { speakerId: linus, createdAt: '2026-03-14T08:00:00.000Z', sessionId: hallFour._id },
      { speakerId: ada, createdAt: '2026-03-14T09:10:00.000Z', sessionId: hallFour._id },
      { speakerId: null, createdAt: '2026-03-14T08:00:00.000Z', sessionId: hallFour._id },
      // A speaker without a talk, and a session that is gone: nowhere.
      { speakerId: id(99), createdAt: '2026-03-14T09:00:00.000Z' },
      { speakerId: ada, createdAt: '2026-03-14T09:00:00.000Z', sessionId: id(98) },
    ]);
    expect(Object.fromEntries(counts)).toEqual({
      [keynote._id]: 1,
      [studioTwo._id]: 2,
      [dayTwo._id]: 1,
      [hallFour._id]: 3,
    });
  });

  it('know each room by its id', () => {
    expect(roomsById(schedule).get(studio)?.name).toBe('Studio');
  });
});
