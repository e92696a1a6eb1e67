import { beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_ID_HEADER } from '../../shared/constants.ts';
import { errorResponseSchema } from '../../shared/errors.ts';
import { publicConfigSchema } from '../../shared/schemas/config.ts';
import { pollListSchema, pollSchema } from '../../shared/schemas/poll.ts';
import {
  type Room,
  type Session,
  roomSchema,
  scheduleSchema,
  sessionSchema,
  sessionWithSpeakersSchema,
} from '../../shared/schemas/programme.ts';
import {
  addSpeakerWithSecret,
  adminToken,
  askQuestion,
  call,
  collect,
  forged,
  joinAttendee,
} from '../../../tests/support/speakers.ts';
import { ManualClock } from '../../../tests/support/manual-clock.ts';
import { testDatabases, useTestApp, useWatchingSockets } from '../../../tests/support/test-app.ts';
import {
  changeSchedule,
  currentSessionOf,
  scheduleVersion,
  sessionSpeakerIds,
  sessionsOfSpeaker,
} from './programme.service.ts';
import {
  cancelSession,
  sessionHasDependents,
  sessionsWithGuid,
  setSessionSpeakers,
  setSpeakerPersonId,
  speakerIdByPersonId,
  upsertRoomByName,
  upsertSessionByGuid,
} from './programme.repository.ts';

const PASSWORD = 'programme-admin-password';

const until = async (check: () => boolean, ms = 3000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe.each(testDatabases)('the programme on %s', (database) => {
  const clock = new ManualClock('2026-03-28T12:00:00Z');
  const t = useTestApp({
    database,
    clock,
    env: { ADMIN_PASSWORD: PASSWORD, WRITE_RATE_LIMIT: '1000' },
  });
  const watch = useWatchingSockets(t);
  let admin: string;

  beforeAll(async () => {
    admin = await adminToken(t.url, PASSWORD);
  });

  const as = (token: string | undefined) => ({
    post: (path: string, body: unknown) => call(t.url, 'POST', path, { token, body }),
    patch: (path: string, body: unknown) => call(t.url, 'PATCH', path, { token, body }),
    del: (path: string) => call(t.url, 'DELETE', path, { token }),
  });
  const addRoom = async (name: string, position?: number): Promise<Room> => {
    const response = await as(admin).post('/api/admin/rooms', { name, position });
    expect(response.status).toBe(201);
    return roomSchema.parse(await response.json());
  };
  const addSession = async (body: Record<string, unknown>): Promise<Session> => {
    const response = await as(admin).post('/api/admin/sessions', body);
    expect(response.status, JSON.stringify(await response.clone().json())).toBe(201);
    return sessionSchema.parse(await response.json());
  };
  const schedule = async () => {
    const response = await fetch(`${t.url}/api/schedule`);
    expect(response.status).toBe(200);
    return {
      etag: response.headers.get('etag') ?? '',
      body: scheduleSchema.parse(await response.json()),
    };
  };
  const setTimezone = async (timezone: string) => {
    const response = await call(t.url, 'PUT', '/api/admin/settings', {
      token: admin,
      body: { timezone },
    });
    expect(response.status).toBe(200);
  };
  const errorOf = async (response: Response) => errorResponseSchema.parse(await response.json());

  it('adds, changes and lists rooms and sessions, and answers a session with its speakers', async () => {
    const ada = (await addSpeakerWithSecret(t.url, 'Ada Programme')).speaker;
    const alan = (await addSpeakerWithSecret(t.url, 'Alan Programme')).speaker;
    const hall = await addRoom('Main hall');
    const side = await addRoom('Side room');
    expect(side.position).toBe(hall.position + 1);

    const talk = await addSession({
      title: 'Engines',
      abstract: 'On engines.\nAnd notes.',
      roomId: hall._id,
      startsAt: '2026-03-28T13:00:00Z',
      endsAt: '2026-03-28T13:45:00Z',
      speakerIds: [alan._id, ada._id],
      track: 'History',
    });
    expect(talk).toMatchObject({
      guid: null,
      title: 'Engines',
      speakerIds: [alan._id, ada._id],
      track: 'History',
      cancelled: false,
      startsAt: '2026-03-28T13:00:00+00:00',
    });

    const one = await fetch(`${t.url}/api/sessions/${talk._id}`);
    expect(one.status).toBe(200);
    const withSpeakers = sessionWithSpeakersSchema.parse(await one.json());
    // A panel keeps its order.
    expect(withSpeakers.speakers.map((speaker) => speaker.name)).toEqual([
      'Alan Programme',
      'Ada Programme',
    ]);
    const again = await fetch(`${t.url}/api/sessions/${talk._id}`, {
      headers: { 'if-none-match': one.headers.get('etag') ?? '' },
    });
    expect(again.status).toBe(304);

    const moved = await as(admin).patch(`/api/admin/sessions/${talk._id}`, {
      roomId: side._id,
      speakerIds: [ada._id],
      cancelled: true,
    });
    expect(moved.status).toBe(200);
    expect(sessionSchema.parse(await moved.json())).toMatchObject({
      roomId: side._id,
      speakerIds: [ada._id],
      cancelled: true,
      title: 'Engines',
    });
    const renamed = await as(admin).patch(`/api/admin/rooms/${side._id}`, { name: 'Room B' });
    expect(roomSchema.parse(await renamed.json())).toEqual({ ...side, name: 'Room B' });

    const { body } = await schedule();
    expect(body.timezone).toBe('UTC');
    expect(body.rooms.map((room) => room.name)).toEqual(
      expect.arrayContaining(['Main hall', 'Room B']),
    );
    expect(body.sessions.find((session) => session._id === talk._id)?.roomId).toBe(side._id);
    expect((await sessionsOfSpeaker(t.app.deps, ada._id)).map((s) => s._id)).toContain(talk._id);
    expect(await sessionsOfSpeaker(t.app.deps, alan._id)).toEqual([]);

    expect((await fetch(`${t.url}/api/sessions/${crypto.randomUUID()}`)).status).toBe(404);
    expect((await fetch(`${t.url}/api/sessions/not-an-id`)).status).toBe(400);
  });

  it('answers the schedule with an ETag and 304, and a version that grows and reaches sockets', async () => {
    const first = await schedule();
    const headers = (await fetch(`${t.url}/api/schedule`)).headers;
    expect(headers.get('cache-control')).toBe('no-cache');
    expect(headers.get('etag')).toBe(first.etag);
    const unchanged = await fetch(`${t.url}/api/schedule`, {
      headers: { 'if-none-match': first.etag },
    });
    expect(unchanged.status).toBe(304);

    const socket = await watch();
    const updates = collect(socket, 'scheduleUpdated');
    const room = await addRoom('Versioned room');
    // (Events to everyone go out a slice of sockets at a time: earlier ones may still arrive.)
    const since = (version: number) => updates.filter((update) => update.version > version);
    await until(() => since(first.body.version).length === 1);
    expect(since(first.body.version)).toEqual([{ version: first.body.version + 1 }]);

    const second = await schedule();
    expect(second.etag).not.toBe(first.etag);
    expect(second.body.version).toBe(first.body.version + 1);
    const stale = await fetch(`${t.url}/api/schedule`, {
      headers: { 'if-none-match': first.etag },
    });
    expect(stale.status).toBe(200);

    // Writes at the same moment each move the version once.
    const parallel = await Promise.all(
      Array.from({ length: 8 }, (_, i) => as(admin).post('/api/admin/rooms', { name: `P${i}` })),
    );
    expect(parallel.map((response) => response.status)).toEqual(Array(8).fill(201));
    await until(() => updates.some((update) => update.version === second.body.version + 8));
    const parallelVersions = since(second.body.version).map((update) => update.version);
    expect(new Set(parallelVersions).size).toBe(8);
    const third = await schedule();
    expect(third.body.version).toBe(second.body.version + 8);

    // A refused write changes nothing: no new version, no event.
    const refused = await as(admin).patch(`/api/admin/rooms/${room._id}`, { name: '' });
    expect(refused.status).toBe(400);
    expect((await schedule()).body.version).toBe(third.body.version);
  });

  it('shows times in the event’s time zone, with the offset of each instant', async () => {
    const room = await addRoom('Berlin room');
    const before = await addSession({
      title: 'Before the change',
      roomId: room._id,
      startsAt: '2026-03-29T01:30:00+01:00',
      endsAt: '2026-03-29T01:45:00+01:00',
    });
    const after = await addSession({
      title: 'After the change',
      roomId: room._id,
      startsAt: '2026-03-29T00:30:00-01:00',
      endsAt: '2026-03-29T02:00:00Z',
    });
    const { etag } = await schedule();
    await setTimezone('Europe/Berlin');
    const berlin = await schedule();
    expect(berlin.etag).not.toBe(etag);
    expect(berlin.body.timezone).toBe('Europe/Berlin');
    const shown = (id: string) => berlin.body.sessions.find((session) => session._id === id);
    expect(shown(before._id)).toMatchObject({
      startsAt: '2026-03-29T01:30:00+01:00',
      endsAt: '2026-03-29T01:45:00+01:00',
    });
    // 00:30 at -01:00 is 01:30 UTC: 03:30 in Berlin, summer time already.
    expect(shown(after._id)).toMatchObject({
      startsAt: '2026-03-29T03:30:00+02:00',
      endsAt: '2026-03-29T04:00:00+02:00',
    });
    const config = publicConfigSchema.parse(await (await fetch(`${t.url}/api/config`)).json());
    expect(config.timezone).toBe('Europe/Berlin');

    const badZone = await call(t.url, 'PUT', '/api/admin/settings', {
      token: admin,
      body: { timezone: 'Mars/Olympus' },
    });
    expect(badZone.status).toBe(400);
    expect((await errorOf(badZone)).error).toMatch(/timezone/);
    await setTimezone('UTC');
  });

  it('refuses times without an offset, sessions that end before they start, unknown rooms and speakers', async () => {
    const room = await addRoom('Rules room');
    const base = {
      title: 'Rules',
      roomId: room._id,
      startsAt: '2026-03-28T10:00:00Z',
      endsAt: '2026-03-28T11:00:00Z',
    };
    const refusals: [Record<string, unknown>, RegExp][] = [
      [{ ...base, startsAt: '2026-03-28T10:00:00' }, /startsAt.*offset/],
      [{ ...base, endsAt: '2026-03-28T10:00:00Z' }, /endsAt/],
      [{ ...base, endsAt: '2026-03-28T09:00:00Z' }, /endsAt/],
      [{ ...base, startsAt: '2026-02-30T10:00:00Z' }, /startsAt/],
      [{ ...base, startsAt: 'tomorrow' }, /startsAt/],
      [{ ...base, roomId: crypto.randomUUID() }, /roomId/],
      [{ ...base, speakerIds: [crypto.randomUUID()] }, /speakerIds/],
      [{ ...base, _id: crypto.randomUUID() }, /_id|nrecognized/],
      [{ ...base, guid: 'abc' }, /guid|nrecognized/],
      [{ ...base, title: 'x'.repeat(301) }, /title/],
      [{ ...base, title: '' }, /title/],
    ];
    for (const [body, message] of refusals) {
      const response = await as(admin).post('/api/admin/sessions', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await errorOf(response)).error).toMatch(message);
    }
    const session = await addSession(base);
    const backwards = await as(admin).patch(`/api/admin/sessions/${session._id}`, {
      startsAt: '2026-03-28T12:00:00+01:00',
    });
    expect(backwards.status).toBe(400);
    expect((await errorOf(backwards)).error).toMatch(/endsAt/);
  });

  it('stores hostile text as text', async () => {
    const name = '<script>alert(1)</script> & "Hall"';
    const room = await addRoom(name);
    const session = await addSession({
      title: '<img src=x onerror=alert(1)> & more',
      abstract: '</script><script>alert(2)</script>',
      roomId: room._id,
      startsAt: '2026-03-28T10:00:00Z',
      endsAt: '2026-03-28T11:00:00Z',
    });
    const response = await fetch(`${t.url}/api/sessions/${session._id}`);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    expect(await response.json()).toMatchObject({
      title: '<img src=x onerror=alert(1)> & more',
      abstract: '</script><script>alert(2)</script>',
    });
    expect(room.name).toBe(name);
    const tooLong = await as(admin).post('/api/admin/rooms', { name: 'x'.repeat(101) });
    expect(tooLong.status).toBe(400);
  });

  it('lets only the admin write, before reading the body', async () => {
    const room = await addRoom('Guarded room');
    const attempts = (token: string | undefined) => [
      as(token).post('/api/admin/rooms', { name: 'Nope' }),
      as(token).patch(`/api/admin/rooms/${room._id}`, { name: 'Nope' }),
      as(token).del(`/api/admin/rooms/${room._id}`),
      as(token).post('/api/admin/sessions', {}),
      as(token).patch(`/api/admin/sessions/${crypto.randomUUID()}`, { title: 'Nope' }),
      as(token).del(`/api/admin/sessions/${crypto.randomUUID()}`),
    ];
    const speaker = await addSpeakerWithSecret(t.url, 'Guarded Speaker');
    for (const token of [undefined, forged(admin), 'garbage', speaker.secret]) {
      for (const response of await Promise.all(attempts(token))) {
        expect(response.status).toBe(401);
        errorResponseSchema.parse(await response.json());
      }
    }
    expect((await schedule()).body.rooms.some((r) => r.name === 'Nope')).toBe(false);
  });

  it('refuses a body that is too large with a 413', async () => {
    const room = await addRoom('Large room');
    const response = await as(admin).post('/api/admin/sessions', {
      title: 'Large',
      abstract: 'x'.repeat(200 * 1024),
      roomId: room._id,
      startsAt: '2026-03-28T10:00:00Z',
      endsAt: '2026-03-28T11:00:00Z',
    });
    expect(response.status).toBe(413);
    const roomTooLarge = await as(admin).post('/api/admin/rooms', { name: 'x'.repeat(4096) });
    expect(roomTooLarge.status).toBe(413);
  });

  it('refuses to delete a room with sessions, naming how many; deletes a session but keeps its questions', async () => {
    const room = await addRoom('Busy room');
    const speaker = (await addSpeakerWithSecret(t.url, 'Deleted Session Speaker')).speaker;
    const session = await addSession({
      title: 'Short-lived',
      roomId: room._id,
      startsAt: '2026-03-28T10:00:00Z',
      endsAt: '2026-03-28T11:00:00Z',
      speakerIds: [speaker._id],
    });
    const refused = await as(admin).del(`/api/admin/rooms/${room._id}`);
    expect(refused.status).toBe(409);
    expect((await errorOf(refused)).error).toMatch(/1 session/);

    const question = await askQuestion(t.url, {
      speakerId: speaker._id,
      question: 'Still here?',
      askerUsername: 'grace',
    });
    await t.app.deps.db
      .updateTable('questions')
      .set({ session_id: session._id })
      .where('id', '=', question._id)
      .execute();
    expect(await sessionHasDependents(t.app.deps.db, session._id)).toBe(true);

    const deleted = await as(admin).del(`/api/admin/sessions/${session._id}`);
    expect(deleted.status).toBe(200);
    expect(sessionSchema.parse(await deleted.json())._id).toBe(session._id);
    expect((await as(admin).del(`/api/admin/sessions/${session._id}`)).status).toBe(404);
    const kept = await t.app.deps.db
      .selectFrom('questions')
      .select(['id', 'session_id'])
      .where('id', '=', question._id)
      .executeTakeFirst();
    expect(kept).toEqual({ id: question._id, session_id: null });

    const emptied = await as(admin).del(`/api/admin/rooms/${room._id}`);
    expect(emptied.status).toBe(200);
    expect((await as(admin).del(`/api/admin/rooms/${room._id}`)).status).toBe(404);
  });

  it('refuses to delete a session with polls, naming how many, and keeps their results', async () => {
    const room = await addRoom('Poll room');
    const session = await addSession({
      title: 'Polled talk',
      roomId: room._id,
      startsAt: '2026-03-28T13:00:00Z',
      endsAt: '2026-03-28T14:00:00Z',
    });
    const pollIds: string[] = [];
    for (const title of ['Rate it', 'Again?']) {
      const created = await as(admin).post('/api/polls', {
        sessionId: session._id,
        title,
        type: 'rating',
      });
      expect(created.status).toBe(201);
      pollIds.push(pollSchema.parse(await created.json())._id);
    }
    const [first, second] = pollIds;
    expect((await as(admin).patch(`/api/polls/${first}`, { state: 'open' })).status).toBe(200);
    const grace = await joinAttendee(t.url, 'poll-grace');
    expect(
      (await call(t.url, 'PUT', `/api/polls/${first}/vote`, { token: grace, body: { rating: 5 } }))
        .status,
    ).toBe(200);
    const before = (await schedule()).body.version;

    const refused = await as(admin).del(`/api/admin/sessions/${session._id}`);
    expect(refused.status).toBe(409);
    expect(await errorOf(refused)).toMatchObject({
      error: 'This session has 2 polls; delete them first, or mark the session cancelled',
      code: expect.any(String) as string,
    });
    // Nothing changed: the session, its polls and their results are there.
    expect((await schedule()).body).toMatchObject({ version: before });
    expect((await schedule()).body.sessions.map((s) => s._id)).toContain(session._id);
    const polls = pollListSchema.parse(
      await (
        await call(t.url, 'GET', `/api/polls?sessionId=${session._id}`, { token: admin })
      ).json(),
    );
    expect(polls.map((poll) => [poll._id, poll.voters])).toEqual([
      [first, 1],
      [second, 0],
    ]);

    for (const id of pollIds) expect((await as(admin).del(`/api/polls/${id}`)).status).toBe(200);
    expect((await as(admin).del(`/api/admin/sessions/${session._id}`)).status).toBe(200);
  });

  it('finds the session running now, and lets an import write in one transaction', async () => {
    const room = await addRoom('Now room');
    const speaker = (await addSpeakerWithSecret(t.url, 'Now Speaker')).speaker;
    const now = clock.now();
    const at = (minutes: number) => new Date(now.getTime() + minutes * 60_000).toISOString();
    const running = await addSession({
      title: 'Running',
      roomId: room._id,
      startsAt: at(-10),
      endsAt: at(20),
      speakerIds: [speaker._id],
    });
    await addSession({ title: 'Next', roomId: room._id, startsAt: at(20), endsAt: at(60) });
    expect((await currentSessionOf(t.app.deps, { roomId: room._id }, now))?._id).toBe(running._id);
    expect((await currentSessionOf(t.app.deps, { speakerId: speaker._id }, now))?._id).toBe(
      running._id,
    );
    // startsAt <= now < endsAt
    expect(
      (await currentSessionOf(t.app.deps, { roomId: room._id }, new Date(at(20))))?.title,
    ).toBe('Next');
    expect(await currentSessionOf(t.app.deps, { roomId: room._id }, new Date(at(90)))).toBeNull();

    const before = (await schedule()).body.version;
    const socket = await watch();
    const updates = collect(socket, 'scheduleUpdated');
    const { id } = await changeSchedule(t.app.deps, async (trx) => {
      const imported = await upsertRoomByName(trx, {
        name: 'Now room',
        position: 7,
        createdAt: now.toISOString(),
      });
      expect(imported).toEqual({ room: { ...room, position: 7 }, created: false });
      await setSpeakerPersonId(trx, speaker._id, 'PERSON-1');
      expect(await speakerIdByPersonId(trx, 'PERSON-1')).toBe(speaker._id);
      const fields = {
        title: 'Imported',
        abstract: '',
        roomId: room._id,
        startsAt: at(120),
        endsAt: at(150),
        track: null,
        cancelled: false,
        now: now.toISOString(),
      };
      const added = await upsertSessionByGuid(trx, 'guid-1', fields);
      const again = await upsertSessionByGuid(trx, 'guid-1', { ...fields, title: 'Renamed' });
      expect(again).toEqual({ id: added.id, created: false });
      await setSessionSpeakers(trx, added.id, [speaker._id]);
      await cancelSession(trx, running._id, now.toISOString());
      return added;
    });
    expect(await scheduleVersion(t.app.deps)).toBe(before + 1);
    expect(await sessionSpeakerIds(t.app.deps, id)).toEqual([speaker._id]);
    expect(await sessionsWithGuid(t.app.deps.db)).toContainEqual({
      id,
      guid: 'guid-1',
      cancelled: false,
    });
    // Events to everyone go out a slice of sockets at a time: this socket may still hear the
    // writes made just before it connected, then this one, last.
    await until(() => updates.some((update) => update.version === before + 1));
    expect(updates.at(-1)).toEqual({ version: before + 1 });
    const { body } = await schedule();
    expect(body.sessions.find((s) => s._id === id)).toMatchObject({
      guid: 'guid-1',
      title: 'Renamed',
    });
    expect(body.sessions.find((s) => s._id === running._id)?.cancelled).toBe(true);
    expect(await currentSessionOf(t.app.deps, { roomId: room._id }, now)).toBeNull();
  });
});

describe('the admin writes of the programme are rate limited', () => {
  const t = useTestApp({ env: { ADMIN_PASSWORD: PASSWORD, WRITE_RATE_LIMIT: '3' } });

  it('answers 429 with Retry-After past the limit', async () => {
    const admin = await adminToken(t.url, PASSWORD);
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 5; i += 1) {
      last = await fetch(`${t.url}/api/admin/rooms`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${admin}`,
          'content-type': 'application/json',
          [CLIENT_ID_HEADER]: 'the-console',
        },
        body: JSON.stringify({ name: `Room ${i}` }),
      });
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 3)).toEqual([201, 201, 201]);
    expect(statuses.at(-1)).toBe(429);
    expect(last?.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});
