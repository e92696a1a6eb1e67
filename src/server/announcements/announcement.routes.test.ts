import { beforeAll, describe, expect, it } from 'vitest';
import { announcementEventSchema } from '../../shared/events.ts';
import {
  type Announcement,
  announcementListSchema,
  announcementSchema,
} from '../../shared/schemas/announcement.ts';
import { ManualClock } from '../../../tests/support/manual-clock.ts';
import { addRoom, addSession, setTimeZone } from '../../../tests/support/programme.ts';
import {
  addSpeakerWithSecret,
  adminToken,
  call,
  collect,
  errorOf,
  forged,
  joinAttendee,
  speakerToken,
} from '../../../tests/support/speakers.ts';
import { testDatabases, useTestApp, useWatchingSockets } from '../../../tests/support/test-app.ts';

const PASSWORD = 'announcements-admin-password';
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

describe.each(testDatabases)('announcements on %s', (database) => {
  // 22:30 in Berlin on November 27th: an hour and a half before the event's day changes.
  const clock = new ManualClock('2026-11-27T21:30:00.000Z');
  const t = useTestApp({
    database,
    clock,
    env: { ADMIN_PASSWORD: PASSWORD, WRITE_RATE_LIMIT: '100000', LOG_LEVEL: 'error' },
  });
  const watch = useWatchingSockets(t);
  let admin: string;
  let grace: string;
  let roomId: string;
  let otherRoomId: string;
  let sessionId: string;

  beforeAll(async () => {
    admin = await adminToken(t.url, PASSWORD);
    grace = await joinAttendee(t.url, 'grace');
    await setTimeZone(t.url, admin, 'Europe/Berlin');
    roomId = (await addRoom(t.url, admin, 'Main hall'))._id;
    otherRoomId = (await addRoom(t.url, admin, 'Workshop room'))._id;
    sessionId = (
      await addSession(t.url, admin, {
        title: 'Opening',
        roomId,
        startsAt: '2026-11-27T21:00:00Z',
        endsAt: '2026-11-27T22:00:00Z',
      })
    )._id;
  });

  /** `null`: no token at all. */
  const announce = (body: unknown, token: string | null = admin) =>
    call(t.url, 'POST', '/api/admin/announcements', { token: token ?? undefined, body });
  const announced = async (body: unknown): Promise<Announcement> => {
    const response = await announce(body);
    expect(response.status, await response.clone().text()).toBe(201);
    return announcementSchema.parse(await response.json());
  };
  const today = async (): Promise<Announcement[]> => {
    const response = await call(t.url, 'GET', '/api/announcements');
    expect(response.status).toBe(200);
    return announcementListSchema.parse(await response.json());
  };

  it('sends an announcement to everyone, live, and lists it among today’s', async () => {
    const everyone = await watch();
    const heard = collect(everyone, 'announcement');
    const announcement = await announced({ text: '  Lunch is served in the foyer  ' });
    expect(announcement).toMatchObject({
      text: 'Lunch is served in the foyer',
      sessionId: null,
      roomId: null,
      createdAt: '2026-11-27T21:30:00.000Z',
    });
    await expect.poll(() => heard.length).toBe(1);
    expect(announcementEventSchema.parse(heard[0])).toEqual({ announcement });
    expect((await today()).map((a) => a._id)).toContain(announcement._id);
  });

  it('sends a session’s announcement to its watchers only, and a room’s to its sessions’', async () => {
    const everyone = await watch();
    const inSession = await watch([{ room: 'session', sessionId }]);
    const heardByAll = collect(everyone, 'announcement');
    const heardInSession = collect(inSession, 'announcement');
    const forSession = await announced({ text: 'Questions at the end, please', sessionId });
    const forRoom = await announced({ text: 'The hall’s doors close now', roomId });
    const forOtherRoom = await announced({ text: 'Laptops out', roomId: otherRoomId });
    await expect.poll(() => heardInSession.length).toBe(2);
    await settle();
    expect(heardInSession.map((event) => event.announcement._id)).toEqual([
      forSession._id,
      forRoom._id,
    ]);
    expect(heardByAll).toEqual([]);
    expect(forOtherRoom.roomId).toBe(otherRoomId);
    const listed = (await today()).map((a) => a._id);
    // Newest first.
    expect(listed.indexOf(forOtherRoom._id)).toBeLessThan(listed.indexOf(forRoom._id));
  });

  it('lists only today’s, today as the event’s time zone has it', async () => {
    const late = await announced({ text: 'Last train at 23:40' });
    expect((await today()).map((a) => a._id)).toContain(late._id);
    // 00:30 in Berlin the next day, though still the 27th in UTC until midnight there.
    clock.advance(2 * 3_600_000);
    const listed = await today();
    expect(listed.map((a) => a._id)).not.toContain(late._id);
    const morning = await announced({ text: 'Good morning' });
    expect((await today()).map((a) => a._id)).toEqual([morning._id]);
  });

  it('answers 304 while today’s list is the same', async () => {
    const first = await call(t.url, 'GET', '/api/announcements');
    const etag = first.headers.get('etag') ?? '';
    expect(etag).not.toBe('');
    const again = await fetch(`${t.url}/api/announcements`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
  });

  it('refuses anyone but the admin, and stores nothing', async () => {
    const { speaker, secret } = await addSpeakerWithSecret(t.url, 'Ada Announcer');
    const speaker_ = await speakerToken(t.url, speaker.username, secret);
    const before = await today();
    for (const token of [null, forged(admin), grace, speaker_, 'not-a-token']) {
      const response = await announce({ text: 'Free beer' }, token);
      expect(response.status).toBe(401);
      expect(await errorOf(response)).toBeTruthy();
    }
    expect(await today()).toEqual(before);
  });

  it('refuses hostile and oversized bodies with 4xx JSON, and stores nothing', async () => {
    const before = await today();
    const bodies: unknown[] = [
      {},
      { text: '' },
      { text: '   ' },
      { text: 'x'.repeat(281) },
      { text: 42 },
      { text: 'Hi', sessionId: 'not-an-id' },
      { text: 'Hi', sessionId, roomId },
      { text: 'Hi', sessionId: '01900000-0000-7000-8000-000000000000' },
      { text: 'Hi', roomId: '01900000-0000-7000-8000-000000000000' },
      { text: 'Hi', extra: true },
      { text: 'bell\u0007' },
      [],
      null,
    ];
    for (const body of bodies) {
      const response = await announce(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await errorOf(response)).toBeTruthy();
    }
    const raw = await call(t.url, 'POST', '/api/admin/announcements', {
      token: admin,
      raw: '{"text": "unterminated',
    });
    expect(raw.status).toBe(400);
    const huge = await call(t.url, 'POST', '/api/admin/announcements', {
      token: admin,
      body: { text: 'x'.repeat(10_000) },
    });
    expect(huge.status).toBe(413);
    expect(await errorOf(huge)).toBeTruthy();
    expect(await today()).toEqual(before);
  });

  it('takes 280 characters, and keeps the line breaks', async () => {
    const text = `${'a'.repeat(139)}\n${'b'.repeat(140)}`;
    expect((await announced({ text })).text).toBe(text);
  });
});
