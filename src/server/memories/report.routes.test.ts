import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { memoryListSchema, memoryUpdateResponseSchema } from '../../shared/schemas/memory.ts';
import { reportedMemoriesSchema } from '../../shared/schemas/report.ts';
import { ManualClock } from '../../../tests/support/manual-clock.ts';
import { seedMemories } from '../../../tests/support/seed-memories.ts';
import {
  adminToken,
  bearer,
  call,
  collect,
  errorOf,
  forged,
  joinAttendee,
} from '../../../tests/support/speakers.ts';
import { testDatabases, useTestApp, useWatchingSockets } from '../../../tests/support/test-app.ts';

const PASSWORD = 'reports admin password';

const until = async (check: () => boolean, ms = 5_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe.each(testDatabases)('reports of memories (%s)', (database) => {
  const clock = new ManualClock();
  const t = useTestApp({
    database,
    clock,
    env: { ADMIN_PASSWORD: PASSWORD, WRITE_RATE_LIMIT: '10000' },
  });
  const sockets = useWatchingSockets(t);
  let admin: string;

  beforeAll(async () => {
    admin = await adminToken(t.url, PASSWORD);
  });
  // Each test starts with fresh rate-limit windows.
  beforeEach(() => clock.advance(61_000));

  const seed = async (count = 1) =>
    seedMemories(
      { ...t.app.deps, lists: t.app.deps.lists },
      Array.from({ length: count }, (_, index) => ({ username: 'pat', text: `photo ${index}` })),
    );
  const attendees = (count: number, prefix: string) =>
    Promise.all(Array.from({ length: count }, (_, i) => joinAttendee(t.url, `${prefix}${i}`)));
  /** A report from an attendee (a token) or from anyone (none), as a device of `client` sends it. */
  const report = (
    id: string,
    body: unknown,
    from: { token?: string; client?: string } = {},
  ): Promise<Response> =>
    fetch(`${t.url}/api/memories/${id}/report`, {
      method: 'POST',
      headers: {
        ...bearer(from.token),
        'content-type': 'application/json',
        ...(from.client ? { 'x-confab-user': from.client } : {}),
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const reasonOf = (text: string) => ({ reason: text, category: 'inappropriate' });
  const reported = async () => {
    const response = await call(t.url, 'GET', '/api/admin/reports', { token: admin });
    expect(response.status).toBe(200);
    return reportedMemoriesSchema.parse(await response.json());
  };
  const publicIds = async (query = '') =>
    memoryListSchema
      .parse(await (await fetch(`${t.url}/api/memory${query}`)).json())
      .map((memory) => memory._id);
  const setReportsToHide = async (reportsToHide: number) => {
    const response = await call(t.url, 'PUT', '/api/admin/settings', {
      token: admin,
      body: { reportsToHide },
    });
    expect(response.status).toBe(200);
  };

  it('takes a report with 202, shows it to the admin, and counts one person once', async () => {
    const [memory] = await seed();
    if (!memory) throw new Error('no memory');
    const [ada] = await attendees(1, 'ada-');
    const first = await report(memory._id, reasonOf('Not for a conference'), { token: ada });
    expect(first.status).toBe(202);
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(await first.json()).toEqual({ message: 'Thanks, the organisers will look at it' });
    // The same person again, with another reason: answered alike, counted once.
    expect((await report(memory._id, { reason: 'Again' }, { token: ada })).status).toBe(202);

    const [entry] = (await reported()).filter((e) => e.memory._id === memory._id);
    expect(entry?.reporters).toBe(1);
    expect(entry?.reports.map((r) => [r.category, r.reason])).toEqual([
      ['inappropriate', 'Not for a conference'],
    ]);
    // Still public: one report is not several people.
    expect(await publicIds()).toContain(memory._id);
    // Anonymous reporters count by address: two devices of one address are one reporter.
    const [other] = await seed();
    if (!other) throw new Error('no memory');
    expect((await report(other._id, { reason: 'me' }, { client: 'device-a' })).status).toBe(202);
    expect((await report(other._id, { reason: 'me' }, { client: 'device-b' })).status).toBe(202);
    const anonymous = (await reported()).find((e) => e.memory._id === other._id);
    expect(anonymous?.reporters).toBe(1);
    expect(anonymous?.reports[0]?.category).toBe('other');
  });

  it('refuses bad input with 400 and an unknown memory with 404, storing nothing', async () => {
    const [memory] = await seed();
    if (!memory) throw new Error('no memory');
    const [ada] = await attendees(1, 'bad-');
    const refusals: [unknown, number][] = [
      [{ reason: 'x'.repeat(501) }, 400],
      [{ reason: 42 }, 400],
      [{ reason: '   ' }, 400],
      [{}, 400],
      [{ reason: 'ok', category: 'spam' }, 400],
      [{ reason: 'ok', extra: true }, 400],
      ['{"reason": ', 400],
      [['reason'], 400],
    ];
    for (const [body, status] of refusals) {
      const response = await report(memory._id, body, { token: ada });
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect(await errorOf(response)).not.toBe('');
    }
    const tooBig = await report(memory._id, { reason: 'y'.repeat(5000) }, { token: ada });
    expect([400, 413]).toContain(tooBig.status);
    const unknown = await report(
      '0193a1f0-0000-7000-8000-000000000999',
      { reason: 'x' },
      {
        token: ada,
      },
    );
    expect(unknown.status).toBe(404);
    expect(await errorOf(unknown)).toMatch(/memory/i);
    expect((await report('not-an-id', { reason: 'x' }, { token: ada })).status).toBe(400);
    // A forged attendee token is refused before anything is read.
    const forgedToken = await report(memory._id, { reason: 'x' }, { token: forged(ada ?? '') });
    expect(forgedToken.status).toBe(401);
    // A 500-character reason is taken.
    expect((await report(memory._id, { reason: 'z'.repeat(500) }, { token: ada })).status).toBe(
      202,
    );
    const entry = (await reported()).find((e) => e.memory._id === memory._id);
    expect(entry?.reports.map((r) => r.reason.length)).toEqual([500]);
  });

  it('hides a memory reported by several people from the gallery, the wall and sockets', async () => {
    await setReportsToHide(3);
    const [memory] = await seed();
    if (!memory) throw new Error('no memory');
    const everyone = await sockets();
    const moderators = await sockets([{ room: 'moderation', token: admin }]);
    const publicDeleted = collect(everyone, 'memoryDeleted');
    const moderatorUpdated = collect(moderators, 'memoryUpdated');
    const moderatorDeleted = collect(moderators, 'memoryDeleted');
    const reportsChanged = collect(moderators, 'reportsChanged');
    const wallTag = (await fetch(`${t.url}/api/memory?limit=60`)).headers.get('etag');
    const reporters = await attendees(3, 'hide-');
    for (const [index, token] of reporters.entries()) {
      expect(await publicIds('?limit=60')).toContain(memory._id);
      expect((await report(memory._id, reasonOf(`reason ${index}`), { token })).status).toBe(202);
    }
    // Gone from the gallery, the wall (a fresh answer, not a 304) and its own address.
    expect(await publicIds()).not.toContain(memory._id);
    const wall = await fetch(`${t.url}/api/memory?limit=60`, {
      headers: { 'if-none-match': wallTag ?? '' },
    });
    expect(wall.status).toBe(200);
    expect(memoryListSchema.parse(await wall.json()).map((m) => m._id)).not.toContain(memory._id);
    expect((await fetch(`${t.url}/api/memory/${memory._id}`)).status).toBe(404);
    // Public screens drop it; the admin's see it waiting, with its reports.
    await until(() => publicDeleted.some((e) => e.id === memory._id));
    await until(() => moderatorUpdated.some((e) => e.memory._id === memory._id));
    await until(() => reportsChanged.filter((e) => e.memoryId === memory._id).length === 3);
    expect(moderatorUpdated.find((e) => e.memory._id === memory._id)?.memory.status).toBe(
      'pending',
    );
    expect(moderatorDeleted).toEqual([]);
    const pending = await call(t.url, 'GET', '/api/media?status=pending', { token: admin });
    expect(memoryListSchema.parse(await pending.json()).map((m) => m._id)).toContain(memory._id);
    const entry = (await reported()).find((e) => e.memory._id === memory._id);
    expect(entry?.reporters).toBe(3);
    expect(entry?.memory.status).toBe('pending');
    expect(entry?.reports.map((r) => r.reason)).toEqual(['reason 2', 'reason 1', 'reason 0']);
    // Hidden, it is out of reach of anyone else's report.
    const [late] = await attendees(1, 'late-');
    expect((await report(memory._id, { reason: 'x' }, { token: late })).status).toBe(404);
  });

  it('keeps a memory: public again, reports dismissed, and only new people hide it again', async () => {
    await setReportsToHide(2);
    const [memory] = await seed();
    if (!memory) throw new Error('no memory');
    const first = await attendees(2, 'keep-');
    for (const token of first) await report(memory._id, { reason: 'no' }, { token });
    expect(await publicIds()).not.toContain(memory._id);

    const everyone = await sockets();
    const publicUpdated = collect(everyone, 'memoryUpdated');
    const kept = await call(t.url, 'PATCH', `/api/media/${memory._id}`, {
      token: admin,
      body: { status: 'published' },
    });
    expect(kept.status).toBe(200);
    expect(memoryUpdateResponseSchema.parse(await kept.json()).memory.status).toBe('published');
    expect(await publicIds()).toContain(memory._id);
    await until(() => publicUpdated.some((e) => e.memory._id === memory._id));
    expect((await reported()).map((e) => e.memory._id)).not.toContain(memory._id);

    // The people the admin overruled do not count again.
    for (const token of first) {
      expect((await report(memory._id, { reason: 'still no' }, { token })).status).toBe(202);
    }
    expect(await publicIds()).toContain(memory._id);
    expect((await reported()).map((e) => e.memory._id)).not.toContain(memory._id);
    // New people do: one is listed, two hide it again.
    const [third, fourth] = await attendees(2, 'keep-new-');
    await report(memory._id, { reason: 'new' }, { token: third });
    expect((await reported()).find((e) => e.memory._id === memory._id)?.reporters).toBe(1);
    expect(await publicIds()).toContain(memory._id);
    // Keeping a published memory with open reports dismisses them too.
    const keptAgain = await call(t.url, 'PATCH', `/api/media/${memory._id}`, {
      token: admin,
      body: { status: 'published' },
    });
    expect(keptAgain.status).toBe(200);
    expect((await reported()).map((e) => e.memory._id)).not.toContain(memory._id);
    await report(memory._id, { reason: 'new' }, { token: fourth });
    const [fifth] = await attendees(1, 'keep-fifth-');
    await report(memory._id, { reason: 'new' }, { token: fifth });
    expect(await publicIds()).not.toContain(memory._id);
  });

  it('removes a reported memory with its files and reports', async () => {
    await setReportsToHide(3);
    const [memory] = await seed();
    if (!memory) throw new Error('no memory');
    const [ada] = await attendees(1, 'remove-');
    await report(memory._id, { reason: 'me' }, { token: ada });
    const keysBefore = await t.storedMediaKeys('memories/');
    expect(keysBefore.some((key) => key.includes(memory._id))).toBe(true);
    const removed = await call(t.url, 'DELETE', `/api/media/${memory._id}`, { token: admin });
    expect(removed.status).toBe(200);
    expect((await t.storedMediaKeys('memories/')).some((key) => key.includes(memory._id))).toBe(
      false,
    );
    expect((await reported()).map((e) => e.memory._id)).not.toContain(memory._id);
    const rows = await t.app.deps.db
      .selectFrom('memory_reports')
      .select('id')
      .where('memory_id', '=', memory._id)
      .execute();
    expect(rows).toEqual([]);
  });

  it('never hides by reports when the threshold is 0', async () => {
    await setReportsToHide(0);
    const [memory] = await seed();
    if (!memory) throw new Error('no memory');
    for (const token of await attendees(4, 'zero-')) {
      await report(memory._id, { reason: 'no' }, { token });
    }
    expect(await publicIds()).toContain(memory._id);
    expect((await reported()).find((e) => e.memory._id === memory._id)?.reporters).toBe(4);
    await setReportsToHide(3);
  });

  it('limits reports per person and per address with 429 and Retry-After', async () => {
    const memories = await seed(12);
    const [ada] = await attendees(1, 'limit-');
    const statuses: number[] = [];
    for (const memory of memories.slice(0, 6)) {
      statuses.push((await report(memory._id, { reason: 'x' }, { token: ada })).status);
    }
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
    const limited = await report(memories[6]?._id ?? '', { reason: 'x' }, { token: ada });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await errorOf(limited)).not.toBe('');

    // Without a token, ten a minute from one address, whichever device says it sends them.
    clock.advance(61_000);
    const anonymous: number[] = [];
    for (const [index, memory] of memories.slice(0, 11).entries()) {
      anonymous.push(
        (await report(memory._id, { reason: 'x' }, { client: `device-${index}` })).status,
      );
    }
    expect(anonymous.slice(0, 10).every((status) => status === 202)).toBe(true);
    expect(anonymous[10]).toBe(429);
    // An attendee at that address is still heard.
    const [bob] = await attendees(1, 'limit-bob-');
    expect((await report(memories[11]?._id ?? '', { reason: 'x' }, { token: bob })).status).toBe(
      202,
    );
  });

  it('lists reports to the admin only', async () => {
    const [ada] = await attendees(1, 'list-');
    expect((await call(t.url, 'GET', '/api/admin/reports')).status).toBe(401);
    expect((await call(t.url, 'GET', '/api/admin/reports', { token: ada })).status).toBe(401);
    const forgedAdmin = await call(t.url, 'GET', '/api/admin/reports', { token: forged(admin) });
    expect(forgedAdmin.status).toBe(401);
    expect(await errorOf(forgedAdmin)).not.toBe('');
    const allowed = await call(t.url, 'GET', '/api/admin/reports', { token: admin });
    expect(allowed.status).toBe(200);
    const tag = allowed.headers.get('etag');
    expect(tag).toBeTruthy();
    const again = await fetch(`${t.url}/api/admin/reports`, {
      headers: { ...bearer(admin), 'if-none-match': tag ?? '' },
    });
    expect(again.status).toBe(304);
  });
});
