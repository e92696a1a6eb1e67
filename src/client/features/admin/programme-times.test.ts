import { describe, expect, it } from 'vitest';
import type { Room, Session } from '../../../shared/schemas/programme.ts';
import { programmeDays, timeZoneNames, zoneClock } from './programme-times.ts';

describe('a time zone’s clock', () => {
  const berlin = zoneClock('Europe/Berlin');

  it('reads a wall time of the zone as the instant it names, on both sides of a change', () => {
    expect(berlin.iso(berlin.instant('2026-03-14T09:30') ?? 0)).toBe('2026-03-14T09:30:00+01:00');
    expect(berlin.iso(berlin.instant('2026-03-29T01:30') ?? 0)).toBe('2026-03-29T01:30:00+01:00');
    expect(berlin.iso(berlin.instant('2026-03-29T03:30') ?? 0)).toBe('2026-03-29T03:30:00+02:00');
    expect(berlin.iso(berlin.instant('2026-10-25T12:00') ?? 0)).toBe('2026-10-25T12:00:00+01:00');
    // The hour clocks skip does not exist: read as the hour after it.
    expect(berlin.iso(berlin.instant('2026-03-29T02:30') ?? 0)).toBe('2026-03-29T03:30:00+02:00');
  });

  it('shows an instant as the zone’s wall time, its offset and its day', () => {
    const instant = '2026-03-27T08:00:00Z';
    expect(berlin.wall(instant)).toBe('2026-03-27T09:00');
    expect(berlin.offset(instant)).toBe('UTC+01:00');
    expect(berlin.dayLabel(instant)).toBe('Friday 27 March');
    expect(zoneClock('UTC').offset(instant)).toBe('UTC');
    expect(zoneClock('America/New_York').wall(instant)).toBe('2026-03-27T04:00');
  });

  it('answers undefined for what is not a wall time', () => {
    expect(berlin.instant('')).toBeUndefined();
    expect(berlin.instant('2026-03-14')).toBeUndefined();
    expect(berlin.instant('09:30')).toBeUndefined();
  });
});

describe('the programme by day and room', () => {
  const rooms: Room[] = [
    { _id: 'b', name: 'Main Hall', position: 0 },
    { _id: 'a', name: 'Room 101', position: 1 },
    { _id: 'c', name: 'Empty', position: 2 },
  ];
  const session = (id: string, roomId: string, startsAt: string): Session => ({
    _id: id,
    guid: null,
    title: id,
    abstract: '',
    roomId,
    startsAt,
    endsAt: startsAt,
    speakerIds: [],
    track: null,
    cancelled: false,
  });

  it('groups sessions by the zone’s day, rooms in their order, leaving out empty rooms', () => {
    // 23:30 UTC on the 27th is already the 28th in Berlin.
    const days = programmeDays(
      rooms,
      [
        session('one', 'a', '2026-03-27T09:00:00Z'),
        session('two', 'b', '2026-03-27T10:00:00Z'),
        session('three', 'a', '2026-03-27T23:30:00Z'),
      ],
      zoneClock('Europe/Berlin'),
    );
    expect(days.map(({ key }) => key)).toEqual(['2026-03-27', '2026-03-28']);
    expect(days[0]?.rooms.map(({ room }) => room.name)).toEqual(['Main Hall', 'Room 101']);
    expect(days[1]?.rooms[0]?.sessions.map(({ title }) => title)).toEqual(['three']);
  });
});

it('offers UTC first, then every zone the browser knows', () => {
  const names = timeZoneNames();
  expect(names[0]).toBe('UTC');
  expect(names).toContain('Europe/Berlin');
  expect(names.filter((name) => name === 'UTC')).toHaveLength(1);
});
