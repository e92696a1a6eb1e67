import { describe, expect, it } from 'vitest';
import type { Schedule, Session } from '../../../../shared/schemas/programme.ts';
import { isOnNow, sessionsOfSpeaker, startTime, todaysSessions } from './sessions-now.ts';

const ROOM = '01a21ba3-0000-7000-8000-00000000aaaa';
const ADA = '01a21ba3-0000-7000-8000-00000000000a';
const ALAN = '01a21ba3-0000-7000-8000-00000000000b';

let n = 0;
const session = (startsAt: string, endsAt: string, fields: Partial<Session> = {}): Session => ({
  _id: `01a21ba3-0000-7000-8000-${String((n += 1)).padStart(12, '0')}`,
  guid: null,
  title: `Talk ${n}`,
  abstract: '',
  roomId: ROOM,
  startsAt,
  endsAt,
  speakerIds: [ADA],
  track: null,
  cancelled: false,
  ...fields,
});

// Berlin, on the night summer time starts: 02:00 becomes 03:00 on March 29th, 2026.
const yesterday = session('2026-03-27T18:00:00+01:00', '2026-03-27T19:00:00+01:00');
const morning = session('2026-03-28T09:00:00+01:00', '2026-03-28T10:00:00+01:00');
const panel = session('2026-03-28T12:00:00+01:00', '2026-03-28T13:00:00+01:00', {
  speakerIds: [ADA, ALAN],
});
const called = session('2026-03-28T12:30:00+01:00', '2026-03-28T13:30:00+01:00', {
  cancelled: true,
});
const evening = session('2026-03-28T23:30:00+01:00', '2026-03-29T03:30:00+02:00', {
  speakerIds: [ALAN],
});
const tomorrow = session('2026-03-29T09:00:00+02:00', '2026-03-29T10:00:00+02:00');
const schedule: Schedule = {
  timezone: 'Europe/Berlin',
  version: 1,
  rooms: [{ _id: ROOM, name: 'Main hall', position: 0 }],
  sessions: [yesterday, morning, panel, called, evening, tomorrow],
};
const at = (iso: string) => Date.parse(iso);

describe('the sessions offered now', () => {
  it('knows what runs now: started, not ended, not cancelled', () => {
    expect(isOnNow(panel, at('2026-03-28T11:00:00Z'))).toBe(true);
    expect(isOnNow(panel, at('2026-03-28T12:00:00Z'))).toBe(false);
    expect(isOnNow(panel, at('2026-03-28T10:59:59Z'))).toBe(false);
    expect(isOnNow(called, at('2026-03-28T11:45:00Z'))).toBe(false);
    expect(startTime(evening)).toBe('23:30');
  });

  it("offers the sessions on now first, then the rest of today's in the event's zone", () => {
    const { onNow, later } = todaysSessions(schedule, at('2026-03-28T11:15:00Z'));
    expect(onNow).toEqual([panel]);
    expect(later).toEqual([morning, evening]);
    // At 00:30 in Berlin (23:30 UTC) it is the 29th there: the evening talk runs on.
    const night = todaysSessions(schedule, at('2026-03-28T23:30:00Z'));
    expect(night.onNow).toEqual([evening]);
    expect(night.later).toEqual([tomorrow]);
    expect(todaysSessions(undefined, Date.now())).toEqual({ onNow: [], later: [] });
  });

  it("lists a speaker's sessions with the one on now first", () => {
    expect(sessionsOfSpeaker(schedule, ALAN, at('2026-03-28T23:00:00Z'))).toEqual([evening, panel]);
    expect(sessionsOfSpeaker(schedule, ALAN, at('2026-03-28T08:00:00Z'))).toEqual([panel, evening]);
    expect(sessionsOfSpeaker(undefined, ALAN, 0)).toEqual([]);
  });
});
