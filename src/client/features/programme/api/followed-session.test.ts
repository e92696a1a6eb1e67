import { describe, expect, it } from 'vitest';
import type { Schedule, Session } from '../../../../shared/schemas/programme.ts';
import { FOLLOW_AFTER_END_MS, sessionToFollow } from './followed-session.ts';

const session = (id: string, from: string, to: string, fields: Partial<Session> = {}): Session => ({
  _id: id,
  guid: null,
  title: `Talk ${id}`,
  abstract: '',
  roomId: 'room',
  startsAt: `2026-12-03T${from}:00+01:00`,
  endsAt: `2026-12-03T${to}:00+01:00`,
  speakerIds: [],
  track: null,
  cancelled: false,
  ...fields,
});

const schedule = (sessions: Session[]): Schedule => ({
  timezone: 'Europe/Berlin',
  rooms: [],
  sessions,
  version: 1,
});

const at = (time: string) => Date.parse(`2026-12-03T${time}:00+01:00`);

describe('the talk /home follows', () => {
  const parallel = schedule([
    session('a', '10:00', '11:00'),
    session('b', '10:00', '11:00'),
    session('c', '12:00', '12:30'),
  ]);

  it('is the talk opened last while it runs, and for a while after it ends', () => {
    const followed = 'a';
    expect(sessionToFollow(parallel, followed, at('10:30'))?._id).toBe('a');
    expect(sessionToFollow(parallel, followed, at('11:00') + FOLLOW_AFTER_END_MS - 1)?._id).toBe(
      'a',
    );
    expect(sessionToFollow(parallel, followed, at('11:00') + FOLLOW_AFTER_END_MS)).toBeNull();
    // Not before it starts: then the talk on now, if it is the only one.
    expect(sessionToFollow(parallel, 'c', at('09:00'))).toBeNull();
  });

  it('is the only talk on now when none was opened, and none among parallel talks', () => {
    expect(sessionToFollow(parallel, undefined, at('10:30'))).toBeNull();
    expect(sessionToFollow(parallel, undefined, at('12:15'))?._id).toBe('c');
    expect(sessionToFollow(parallel, 'gone', at('12:15'))?._id).toBe('c');
  });

  it('is never a cancelled talk', () => {
    const cancelled = schedule([session('a', '10:00', '11:00', { cancelled: true })]);
    expect(sessionToFollow(cancelled, 'a', at('10:30'))).toBeNull();
    expect(sessionToFollow(undefined, 'a', at('10:30'))).toBeNull();
  });
});
