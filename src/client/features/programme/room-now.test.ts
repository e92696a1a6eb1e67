import { describe, expect, it } from 'vitest';
import type { Session } from '../../../shared/schemas/programme.ts';
import { eventDay, nextChange, roomNow, startOfEventDay } from './room-now.ts';

const ROOM = '0193a0b2-7c1e-7b7a-9f3e-5d1c2a3b4c01';
const OTHER_ROOM = '0193a0b2-7c1e-7b7a-9f3e-5d1c2a3b4c02';
const BERLIN = 'Europe/Berlin';

let made = 0;
/** A session in `ROOM` from `startsAt` to `endsAt` (ISO 8601 with offsets, as the API gives). */
function session(startsAt: string, endsAt: string, change: Partial<Session> = {}): Session {
  made += 1;
  return {
    _id: `0193a0b2-7c1e-7b7a-9f3e-${String(made).padStart(12, '0')}`,
    guid: null,
    title: `Talk ${made}`,
    abstract: '',
    roomId: ROOM,
    startsAt,
    endsAt,
    speakerIds: [],
    track: null,
    cancelled: false,
    ...change,
  };
}

const at = (iso: string) => Date.parse(iso);

describe('what a room shows by the clock', () => {
  const first = session('2026-11-27T09:00:00+01:00', '2026-11-27T09:45:00+01:00');
  const second = session('2026-11-27T10:00:00+01:00', '2026-11-27T10:45:00+01:00');
  const tomorrow = session('2026-11-28T09:30:00+01:00', '2026-11-28T10:00:00+01:00');
  const elsewhere = session('2026-11-27T09:50:00+01:00', '2026-11-27T10:30:00+01:00', {
    roomId: OTHER_ROOM,
  });
  const cancelled = session('2026-11-27T09:45:00+01:00', '2026-11-27T10:00:00+01:00', {
    cancelled: true,
  });
  const day = [tomorrow, second, elsewhere, cancelled, first];
  const show = (iso: string) => roomNow(day, ROOM, at(iso), BERLIN);

  it('is the session running now, from its first millisecond to before its end', () => {
    expect(show('2026-11-27T09:00:00+01:00')).toEqual({ kind: 'on', session: first });
    expect(show('2026-11-27T09:44:59.999+01:00')).toEqual({ kind: 'on', session: first });
    expect(show('2026-11-27T10:10:00+01:00')).toEqual({ kind: 'on', session: second });
  });

  it('between talks and before the first, is the next talk of the day; never a cancelled one', () => {
    expect(show('2026-11-27T07:00:00+01:00')).toEqual({ kind: 'next', session: first });
    expect(show('2026-11-27T09:45:00+01:00')).toEqual({ kind: 'next', session: second });
    expect(show('2026-11-27T09:50:00+01:00')).toEqual({ kind: 'next', session: second });
  });

  it("after the day's last talk, is the end with the next day's first talk, or the end alone", () => {
    expect(show('2026-11-27T10:45:00+01:00')).toEqual({ kind: 'ended', next: tomorrow });
    expect(show('2026-11-27T23:59:59+01:00')).toEqual({ kind: 'ended', next: tomorrow });
    expect(show('2026-11-28T00:00:00+01:00')).toEqual({ kind: 'next', session: tomorrow });
    expect(show('2026-11-28T10:00:00+01:00')).toEqual({ kind: 'ended', next: undefined });
    expect(roomNow([], ROOM, at('2026-11-27T10:00:00Z'), BERLIN)).toEqual({
      kind: 'ended',
      next: undefined,
    });
  });

  it('takes the one that started last when two overlap', () => {
    const overrun = session('2026-11-27T11:00:00+01:00', '2026-11-27T12:30:00+01:00');
    const late = session('2026-11-27T12:00:00+01:00', '2026-11-27T12:45:00+01:00');
    expect(roomNow([late, overrun], ROOM, at('2026-11-27T12:15:00+01:00'), BERLIN)).toEqual({
      kind: 'on',
      session: late,
    });
    expect(roomNow([late, overrun], ROOM, at('2026-11-27T12:50:00+01:00'), BERLIN).kind).toBe(
      'ended',
    );
  });

  it('changes next at each start and end of the room, then at the start of the next day', () => {
    const change = (iso: string) => nextChange(day, ROOM, at(iso), BERLIN);
    expect(change('2026-11-27T08:00:00+01:00')).toBe(at('2026-11-27T09:00:00+01:00'));
    expect(change('2026-11-27T09:00:00+01:00')).toBe(at('2026-11-27T09:45:00+01:00'));
    // The other room's and the cancelled session's times change nothing here.
    expect(change('2026-11-27T09:45:00+01:00')).toBe(at('2026-11-27T10:00:00+01:00'));
    expect(change('2026-11-27T10:45:00+01:00')).toBe(at('2026-11-28T00:00:00+01:00'));
    expect(change('2026-11-28T00:00:00+01:00')).toBe(at('2026-11-28T09:30:00+01:00'));
    expect(change('2026-11-28T10:00:00+01:00')).toBeUndefined();
  });
});

describe('across a change of the clocks', () => {
  it('follows instants: a talk over the night summer time starts lasts its real length', () => {
    // Berlin, 29 March 2026: 02:00 CET becomes 03:00 CEST. 01:30 to 03:30 is one hour.
    const night = session('2026-03-29T01:30:00+01:00', '2026-03-29T03:30:00+02:00');
    const after = session('2026-03-29T03:45:00+02:00', '2026-03-29T04:15:00+02:00');
    const sessions = [night, after];
    expect(roomNow(sessions, ROOM, at('2026-03-29T00:45:00Z'), BERLIN)).toEqual({
      kind: 'on',
      session: night,
    });
    expect(roomNow(sessions, ROOM, at('2026-03-29T01:30:00Z'), BERLIN)).toEqual({
      kind: 'next',
      session: after,
    });
    expect(nextChange(sessions, ROOM, at('2026-03-29T00:45:00Z'), BERLIN)).toBe(
      at('2026-03-29T01:30:00Z'),
    );
  });

  it('the same wall time after the clocks go back is another instant', () => {
    // Berlin, 25 October 2026: 03:00 CEST becomes 02:00 CET; 02:30 happens twice.
    const first = session('2026-10-25T02:30:00+02:00', '2026-10-25T02:50:00+02:00');
    const second = session('2026-10-25T02:30:00+01:00', '2026-10-25T02:50:00+01:00');
    const sessions = [second, first];
    expect(roomNow(sessions, ROOM, at('2026-10-25T00:40:00Z'), BERLIN)).toEqual({
      kind: 'on',
      session: first,
    });
    expect(roomNow(sessions, ROOM, at('2026-10-25T00:55:00Z'), BERLIN)).toEqual({
      kind: 'next',
      session: second,
    });
    expect(nextChange(sessions, ROOM, at('2026-10-25T00:55:00Z'), BERLIN)).toBe(
      at('2026-10-25T01:30:00Z'),
    );
  });

  it("a day starts at that day's local midnight, with the offset in force then", () => {
    // The day of the change to summer time starts at 00:00 CET (the talks later carry +02:00).
    expect(startOfEventDay('2026-03-29', BERLIN)).toBe(at('2026-03-29T00:00:00+01:00'));
    expect(startOfEventDay('2026-03-30', BERLIN)).toBe(at('2026-03-30T00:00:00+02:00'));
    expect(startOfEventDay('2026-10-25', BERLIN)).toBe(at('2026-10-25T00:00:00+02:00'));
    expect(startOfEventDay('2026-10-26', BERLIN)).toBe(at('2026-10-26T00:00:00+01:00'));
    expect(startOfEventDay('2026-11-27', 'UTC')).toBe(at('2026-11-27T00:00:00Z'));
    expect(startOfEventDay('2026-11-27', 'Asia/Kolkata')).toBe(at('2026-11-27T00:00:00+05:30'));
    // Havana moves its clocks from 00:00 to 01:00: that day starts at 01:00 CDT.
    expect(startOfEventDay('2026-03-08', 'America/Havana')).toBe(at('2026-03-08T01:00:00-04:00'));
  });

  it("the end screen gives way to the next day's talk at that day's midnight, in the event's zone", () => {
    const saturday = session('2026-03-28T17:00:00+01:00', '2026-03-28T18:00:00+01:00');
    const sunday = session('2026-03-29T09:00:00+02:00', '2026-03-29T10:00:00+02:00');
    const sessions = [saturday, sunday];
    const evening = at('2026-03-28T20:00:00+01:00');
    expect(roomNow(sessions, ROOM, evening, BERLIN)).toEqual({ kind: 'ended', next: sunday });
    expect(nextChange(sessions, ROOM, evening, BERLIN)).toBe(at('2026-03-29T00:00:00+01:00'));
    // In Berlin it is already Sunday when it is still Saturday evening in New York.
    expect(eventDay(at('2026-03-29T00:30:00+01:00'), BERLIN)).toBe('2026-03-29');
    expect(eventDay(at('2026-03-29T00:30:00+01:00'), 'America/New_York')).toBe('2026-03-28');
    expect(roomNow(sessions, ROOM, at('2026-03-29T00:30:00+01:00'), BERLIN)).toEqual({
      kind: 'next',
      session: sunday,
    });
  });
});
