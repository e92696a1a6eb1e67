import { beforeAll, describe, expect, it } from 'vitest';
import { reactionsEventSchema } from '../../shared/events.ts';
import { publicConfigSchema } from '../../shared/schemas/config.ts';
import { DEFAULT_REACTIONS } from '../../shared/schemas/reaction.ts';
import { newId } from '../lib/ids.ts';
import { REACTION_LIMIT } from '../http/transport/rate-limits.ts';
import { REACTION_WINDOW_MS } from '../realtime/reaction-sums.ts';
import { ManualClock } from '../../../tests/support/manual-clock.ts';
import { addRoom, addSession } from '../../../tests/support/programme.ts';
import {
  adminToken,
  call,
  collect,
  errorOf,
  forged,
  joinAttendee,
} from '../../../tests/support/speakers.ts';
import { testDatabases, useTestApp, useWatchingSockets } from '../../../tests/support/test-app.ts';

const PASSWORD = 'reactions-admin-password';

describe.each(testDatabases)('reactions on %s', (database) => {
  const clock = new ManualClock('2026-11-27T09:00:00.000Z');
  const t = useTestApp({ database, clock, env: { ADMIN_PASSWORD: PASSWORD, LOG_LEVEL: 'error' } });
  const watch = useWatchingSockets(t);
  let admin: string;
  let grace: string;
  let sessionId: string;
  let otherSessionId: string;

  beforeAll(async () => {
    admin = await adminToken(t.url, PASSWORD);
    grace = await joinAttendee(t.url, 'grace');
    const room = await addRoom(t.url, admin, 'Main hall');
    const talk = (title: string) =>
      addSession(t.url, admin, {
        title,
        roomId: room._id,
        startsAt: '2026-11-27T09:00:00Z',
        endsAt: '2026-11-27T10:00:00Z',
      });
    sessionId = (await talk('Compilers'))._id;
    otherSessionId = (await talk('Databases'))._id;
  });

  /** Attendees made straight from the signer (no join, no proof of work). */
  const attendees = (count: number, prefix: string) =>
    Promise.all(
      Array.from({ length: count }, (_, i) =>
        t.app.deps.callers.signAttendee({ id: newId(), username: `${prefix}${i}` }),
      ),
    );
  const react = (token: string | undefined, body: unknown) =>
    call(t.url, 'POST', '/api/reactions', { token, body });
  const settings = (body: unknown) =>
    call(t.url, 'PUT', '/api/admin/settings', { token: admin, body });
  /** Every count of `emoji` in the sums received. */
  const total = (received: { counts: Record<string, number> }[], emoji: string) =>
    received.reduce((sum, event) => sum + (event.counts[emoji] ?? 0), 0);
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('offers the default reactions in the config until the organiser picks others', async () => {
    const config = publicConfigSchema.parse(await (await call(t.url, 'GET', '/api/config')).json());
    expect(config.reactions).toEqual(DEFAULT_REACTIONS);
    expect(DEFAULT_REACTIONS).toEqual(['👏', '❤️', '😂', '😮', '🤔', '🎉']);
  });

  it('takes a tap in a session with 202 and sends its sum to that session’s watchers only', async () => {
    const inSession = await watch([{ room: 'session', sessionId }]);
    const inOther = await watch([{ room: 'session', sessionId: otherSessionId }]);
    const sums = collect(inSession, 'reactions');
    const elsewhere = collect(inOther, 'reactions');
    const [tapper] = await attendees(1, 'tapper');
    const response = await react(tapper, { emoji: '👏', sessionId });
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ message: 'Reaction sent' });
    await expect.poll(() => total(sums, '👏')).toBe(1);
    expect(reactionsEventSchema.parse(sums[0])).toEqual({ sessionId, counts: { '👏': 1 } });
    await pause(REACTION_WINDOW_MS * 2);
    expect(elsewhere).toEqual([]);
  });

  it('sends an event-wide tap to everybody, with a null session', async () => {
    const anyone = await watch();
    const inSession = await watch([{ room: 'session', sessionId }]);
    const sums = collect(anyone, 'reactions');
    const sessionSums = collect(inSession, 'reactions');
    const [tapper] = await attendees(1, 'everyone');
    expect((await react(tapper, { emoji: '🎉' })).status).toBe(202);
    await expect.poll(() => total(sums, '🎉')).toBe(1);
    await expect.poll(() => total(sessionSums, '🎉')).toBe(1);
    expect(sums[0]?.sessionId).toBeNull();
  });

  it('sums many taps into at most one event per 250 ms window, losing none', async () => {
    const watcher = await watch([{ room: 'session', sessionId }]);
    const sums = collect(watcher, 'reactions');
    // What crosses to the other instances: this instance's sums, not one message per tap.
    const published: { counts: Record<string, number> }[] = [];
    t.app.deps.events.subscribe('clients', {
      on: (event) => {
        if (event.type === 'reacted' && event.sessionId === sessionId) published.push(event);
      },
    });
    const tappers = await attendees(120, 'crowd');
    const started = Date.now();
    const answers = await Promise.all(
      tappers.map((token, i) => react(token, { emoji: i % 3 === 0 ? '😂' : '❤️', sessionId })),
    );
    expect(answers.map((r) => r.status)).toEqual(tappers.map(() => 202));
    await expect.poll(() => total(sums, '😂') + total(sums, '❤️')).toBe(120);
    const elapsed = Date.now() - started + REACTION_WINDOW_MS;
    expect(total(sums, '😂')).toBe(40);
    expect(total(sums, '❤️')).toBe(80);
    // The first tap goes out at once, then one sum per window at most.
    expect(sums.length).toBeLessThanOrEqual(1 + Math.ceil(elapsed / REACTION_WINDOW_MS));
    expect(sums.length).toBeLessThan(120);
    expect(sums.every((sum) => sum.sessionId === sessionId)).toBe(true);
    expect(total(published, '😂') + total(published, '❤️')).toBe(120);
    expect(published.length).toBeLessThanOrEqual(1 + Math.ceil(elapsed / REACTION_WINDOW_MS));
  });

  it('refuses an emoji that is not one of the event’s reactions with 400', async () => {
    for (const emoji of ['🍕', 'clap', '👏👏', '<script>alert(1)</script>', '']) {
      const response = await react(grace, { emoji, sessionId });
      expect(response.status, emoji).toBe(400);
      expect((await response.json()) as unknown).toMatchObject({ code: 'VALIDATION' });
    }
    const unknown = await react(grace, { emoji: '🍕' });
    expect(await errorOf(unknown)).toBe('emoji must be one of the event’s reactions');
  });

  it('refuses hostile bodies with a 4xx and sends nothing', async () => {
    const watcher = await watch();
    const sums = collect(watcher, 'reactions');
    const [tapper] = await attendees(1, 'hostile');
    const bodies: unknown[] = [
      {},
      { emoji: 42 },
      { emoji: ['👏'] },
      { emoji: '👏', sessionId: 'not-an-id' },
      { emoji: '👏', extra: true },
      { emoji: '👏'.repeat(100) },
      { emoji: '👏', sessionId: newId() },
    ];
    for (const body of bodies) {
      const response = await react(tapper, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await response.json()) as unknown).toHaveProperty('error');
    }
    const raw = await call(t.url, 'POST', '/api/reactions', { token: tapper, raw: '{"emoji":' });
    expect(raw.status).toBe(400);
    const huge = await call(t.url, 'POST', '/api/reactions', {
      token: tapper,
      raw: JSON.stringify({ emoji: '👏', pad: 'x'.repeat(4096) }),
    });
    expect(huge.status).toBe(413);
    expect(await errorOf(await react(tapper, { emoji: '👏', sessionId: newId() }))).toBe(
      'sessionId names no session of the programme',
    );
    await pause(REACTION_WINDOW_MS * 2);
    expect(sums).toEqual([]);
  });

  it('refuses a missing, forged or other kind of token with 401', async () => {
    const watcher = await watch();
    const sums = collect(watcher, 'reactions');
    for (const token of [undefined, forged(grace), 'not-a-token', admin]) {
      const response = await react(token, { emoji: '👏' });
      expect(response.status).toBe(401);
      expect((await response.json()) as unknown).toHaveProperty('error');
    }
    await pause(REACTION_WINDOW_MS * 2);
    expect(sums).toEqual([]);
  });

  it('answers 429 past about a tap a second, and takes taps again in the next window', async () => {
    const [tapper] = await attendees(1, 'eager');
    const statuses: number[] = [];
    for (let i = 0; i < REACTION_LIMIT.max + 2; i += 1) {
      statuses.push((await react(tapper, { emoji: '👏', sessionId })).status);
    }
    expect(statuses).toEqual([...Array.from({ length: REACTION_LIMIT.max }, () => 202), 429, 429]);
    const limited = await react(tapper, { emoji: '👏', sessionId });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await limited.json()) as unknown).toMatchObject({ code: 'RATE_LIMITED' });
    // Another attendee is not held up by this one.
    const [other] = await attendees(1, 'patient');
    expect((await react(other, { emoji: '👏', sessionId })).status).toBe(202);
    clock.advance(REACTION_LIMIT.windowMs);
    expect((await react(tapper, { emoji: '👏', sessionId })).status).toBe(202);
  });

  it('follows the organiser’s list; an empty list turns reactions off (409)', async () => {
    const picked = await settings({ reactions: ['🔥', '👍'] });
    expect(picked.status).toBe(200);
    const config = publicConfigSchema.parse(await (await call(t.url, 'GET', '/api/config')).json());
    expect(config.reactions).toEqual(['🔥', '👍']);
    const [tapper] = await attendees(1, 'picker');
    expect((await react(tapper, { emoji: '🔥' })).status).toBe(202);
    expect((await react(tapper, { emoji: '👏' })).status).toBe(400);

    for (const refused of [
      Array.from({ length: 9 }, () => '🔥'),
      ['🔥', '🔥'],
      ['fire'],
      ['🔥🔥'],
      'fire',
    ]) {
      const response = await settings({ reactions: refused });
      expect(response.status, JSON.stringify(refused)).toBe(400);
    }
    const eight = ['👏', '❤️', '😂', '😮', '🤔', '🎉', '🔥', '🇫🇷'];
    expect((await settings({ reactions: eight })).status).toBe(200);

    expect((await settings({ reactions: [] })).status).toBe(200);
    const off = await react(tapper, { emoji: '👏' });
    expect(off.status).toBe(409);
    expect((await off.json()) as unknown).toMatchObject({
      error: 'Reactions are turned off for this event',
      code: 'CONFLICT',
    });
    const config2 = publicConfigSchema.parse(
      await (await call(t.url, 'GET', '/api/config')).json(),
    );
    expect(config2.reactions).toEqual([]);
    expect((await settings({ reactions: DEFAULT_REACTIONS })).status).toBe(200);
  });
});
