import { io, type Socket } from 'socket.io-client';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ServerToClientEvents } from '../../shared/events.ts';
import {
  adminAuditEntrySchema,
  adminCheckResponseSchema,
  adminLoginResponseSchema,
} from '../../shared/schemas/admin.ts';
import { type Memory, memorySchema } from '../../shared/schemas/memory.ts';
import { newId } from '../lib/ids.ts';
import { findMemory } from '../memories/memory.repository.ts';
import { seedMemories } from '../../../tests/support/seed-memories.ts';
import {
  type TestApp,
  startTestApp,
  testDatabases,
  useTestApp,
} from '../../../tests/support/test-app.ts';
import { ManualClock } from '../../../tests/support/manual-clock.ts';

const PASSWORD = 'correct horse battery staple';
const HOUR = 3_600_000;

const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

async function login(
  t: TestApp,
  credentials: { username: string; password: string },
  client = '192.0.2.1',
): Promise<Response> {
  const init = json(credentials);
  return fetch(`${t.url}/api/admin/login`, {
    ...init,
    headers: { ...init.headers, 'x-forwarded-for': client },
  });
}

async function tokenFor(t: TestApp, password = PASSWORD): Promise<string> {
  const response = await login(t, { username: 'moderator', password });
  expect(response.status).toBe(200);
  return adminLoginResponseSchema.parse(await response.json()).token;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe.each(testDatabases)('admin routes on %s', (database) => {
  const clock = new ManualClock('2026-11-22T09:00:00.000Z');
  let token: string;
  let memories: Memory[];

  const t = useTestApp({
    database,
    clock,
    // Forwarded addresses stand for different clients in the brute-force tests.
    env: { ADMIN_USERNAME: 'moderator', ADMIN_PASSWORD: PASSWORD, TRUST_PROXY: 'true' },
  });
  beforeAll(async () => {
    memories = await seedMemories(t.app.deps, [
      { username: 'Ada_Lovelace', text: 'The analytical engine at dawn', color: '#f03e3e' },
      { username: 'grace', text: 'Compilers and coffee', color: '#37b24d' },
      { username: 'linus', text: 'Kernel panic: 100% fun_time', kind: 'video' },
      { username: 'margaret', text: 'Moon landing code review with ADA', color: '#1c7ed6' },
    ]);
    token = await tokenFor(t);
  });

  describe('login', () => {
    it('answers a signed token that expires in 12 hours by default', async () => {
      const response = await login(t, { username: 'moderator', password: PASSWORD });
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const body = adminLoginResponseSchema.parse(await response.json());
      expect(body.message).toBe('Login successful');
      expect(body.token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]{43}$/);
      expect(body.expiresAt).toBe(new Date(clock.now().getTime() + 12 * HOUR).toISOString());

      const check = await fetch(`${t.url}/api/admin`, { headers: bearer(body.token) });
      expect(check.status).toBe(200);
      expect(adminCheckResponseSchema.parse(await check.json())).toEqual({
        message: 'Authenticated',
        username: 'moderator',
        expiresAt: body.expiresAt,
      });
    });

    it('refuses a wrong username or password with the spec message', async () => {
      for (const credentials of [
        { username: 'moderator', password: 'wrong password' },
        { username: 'admin', password: PASSWORD },
        { username: 'Moderator', password: PASSWORD },
        { username: 'moderator', password: `${PASSWORD} ` },
      ]) {
        const response = await login(t, credentials, '192.0.2.50');
        expect(response.status, JSON.stringify(credentials)).toBe(401);
        expect(await response.json()).toEqual({
          error: 'Invalid username or password',
          code: 'UNAUTHORIZED',
          messageId: 'unauthorized.adminCredentials',
        });
      }
    });

    it('requires both fields', async () => {
      for (const [body, message] of [
        [{ password: PASSWORD }, /Username is required/],
        [{ username: 'moderator', password: '' }, /Password is required/],
        [{ username: '   ', password: PASSWORD }, /Username is required/],
      ] as const) {
        const response = await fetch(`${t.url}/api/admin/login`, json(body));
        expect(response.status).toBe(400);
        expect(((await response.json()) as { error: string }).error).toMatch(message);
      }
      const notJson = await fetch(`${t.url}/api/admin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{nope',
      });
      expect(notJson.status).toBe(400);
    });

    it('limits failed attempts per address: 10 in 15 minutes, then 429 with Retry-After; a success resets it', async () => {
      const attacker = '198.51.100.7';
      for (let attempt = 1; attempt <= 10; attempt++) {
        // A minute apart: the account's own backoff is over each time.
        clock.advance(60_000);
        const response = await login(
          t,
          { username: 'moderator', password: `guess-${attempt}` },
          attacker,
        );
        expect(response.status, `attempt ${attempt}`).toBe(401);
      }
      clock.advance(60_000);
      // Blocked now, even with the right password.
      const blocked = await login(t, { username: 'moderator', password: PASSWORD }, attacker);
      expect(blocked.status).toBe(429);
      expect(blocked.headers.get('retry-after')).toBe(String(5 * 60));
      expect(((await blocked.json()) as { error: string }).error).toBe(
        'Too many failed login attempts. Try again in 5 minutes.',
      );

      // Another address is not affected.
      expect(
        (await login(t, { username: 'moderator', password: PASSWORD }, '198.51.100.8')).status,
      ).toBe(200);

      // When the window is over, the right password works again and clears the count.
      clock.advance(5 * 60_000);
      expect((await login(t, { username: 'moderator', password: PASSWORD }, attacker)).status).toBe(
        200,
      );
      for (let attempt = 1; attempt <= 9; attempt++) {
        clock.advance(60_000);
        await login(t, { username: 'moderator', password: 'nope' }, attacker);
      }
      clock.advance(60_000);
      expect((await login(t, { username: 'moderator', password: PASSWORD }, attacker)).status).toBe(
        200,
      );
    });

    it('limits failures per account whatever the address: 2,000 guesses from rotating addresses get 6 answers, and the organiser gets in after the wait', async () => {
      clock.advance(60 * 60_000);
      const statuses = new Map<number, number>();
      for (let attempt = 0; attempt < 2_000; attempt++) {
        const address = `203.0.${Math.floor(attempt / 250)}.${attempt % 250}`;
        const response = await login(
          t,
          { username: 'moderator', password: `guess-${attempt}` },
          address,
        );
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (attempt === 1_999) {
          expect(Number(response.headers.get('retry-after'))).toBeLessThanOrEqual(60);
        }
        await response.arrayBuffer();
      }
      // Five free failures and a sixth; then every attempt waits 1 s, 2 s, 4 s … (at most 60 s).
      expect(Object.fromEntries(statuses)).toEqual({ 401: 6, 429: 1_994 });

      // The organiser behind the venue's NAT: refused for at most a minute, then in.
      const organiser = '192.0.2.10';
      expect(
        (await login(t, { username: 'moderator', password: PASSWORD }, organiser)).status,
      ).toBe(429);
      clock.advance(1_000);
      expect(
        (await login(t, { username: 'moderator', password: PASSWORD }, organiser)).status,
      ).toBe(200);
    });

    it('trusts one proxy hop: an address written in X-Forwarded-For by the client is not taken', async () => {
      // The proxy in front appends the address it saw; what the client wrote before it is noise.
      clock.advance(60 * 60_000);
      for (let attempt = 1; attempt <= 10; attempt++) {
        clock.advance(60_000);
        const response = await login(
          t,
          { username: 'moderator', password: `guess-${attempt}` },
          `10.9.${attempt}.1, 198.51.100.99`,
        );
        expect(response.status, `attempt ${attempt}`).toBe(401);
      }
      clock.advance(60_000);
      const blocked = await login(
        t,
        { username: 'moderator', password: PASSWORD },
        '10.200.0.1, 198.51.100.99',
      );
      expect(blocked.status).toBe(429);
      clock.advance(15 * 60_000);
    });
  });

  describe('every admin route refuses a request without a valid token', () => {
    const routes = (id: string) =>
      [
        ['GET', '/api/admin'],
        ['GET', '/api/media'],
        ['GET', '/api/media?search=ada&limit=5'],
        ['DELETE', `/api/media/${id}`],
        ['GET', '/api/admin/audit'],
      ] as const;

    async function expectRefused(headers: Record<string, string>, error: string) {
      const target = memories[0];
      if (!target) throw new Error('no seed');
      for (const [method, url] of routes(target._id)) {
        const response = await fetch(`${t.url}${url}`, { method, headers });
        expect(response.status, `${method} ${url}`).toBe(401);
        expect(await response.json(), `${method} ${url}`).toMatchObject({
          error,
          code: 'UNAUTHORIZED',
        });
        expect(response.headers.get('www-authenticate'), `${method} ${url}`).toMatch(
          /^Bearer realm="admin"/,
        );
      }
      // Nothing was deleted.
      expect(await findMemory(t.app.deps.db, target._id)).toBeDefined();
    }

    it('without a token', async () => {
      await expectRefused({}, 'Admin login required');
    });

    it('with a malformed token or another scheme', async () => {
      for (const authorization of [
        'Bearer',
        'Bearer not-a-token',
        `Basic ${Buffer.from(`moderator:${PASSWORD}`).toString('base64')}`,
        `Bearer ${token}.extra`,
        `Bearer ${token.slice(0, -1)}`,
        token,
      ]) {
        await expectRefused({ authorization }, 'Invalid admin token');
      }
    });

    it('with a forged token', async () => {
      const [payload = '', signature = ''] = token.split('.');
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { exp: number };
      const extended = Buffer.from(
        JSON.stringify({ ...claims, exp: claims.exp + 1000 * HOUR }),
      ).toString('base64url');
      await expectRefused(bearer(`${extended}.${signature}`), 'Invalid admin token');
      const flipped = signature.startsWith('A')
        ? `B${signature.slice(1)}`
        : `A${signature.slice(1)}`;
      await expectRefused(bearer(`${payload}.${flipped}`), 'Invalid admin token');

      // A token another server signed with its own secret and the same credentials.
      const other = await startTestApp({
        env: { ADMIN_USERNAME: 'moderator', ADMIN_PASSWORD: PASSWORD },
      });
      try {
        await expectRefused(bearer(await tokenFor(other)), 'Invalid admin token');
      } finally {
        await other.close();
      }
    });

    it('with an expired token (and the same token is good just before)', async () => {
      const fresh = await tokenFor(t);
      clock.advance(12 * HOUR - 1);
      expect((await fetch(`${t.url}/api/admin`, { headers: bearer(fresh) })).status).toBe(200);
      clock.advance(1);
      try {
        await expectRefused(bearer(fresh), 'Your admin session has expired; log in again');
      } finally {
        clock.advance(-12 * HOUR);
      }
    });

    it('before reading or validating the input', async () => {
      for (const [method, url] of [
        ['GET', '/api/media?limit=abc'],
        ['DELETE', '/api/media/not-an-id'],
        ['GET', '/api/admin/audit?limit=-1'],
      ] as const) {
        const response = await fetch(`${t.url}${url}`, { method });
        expect(response.status, url).toBe(401);
      }
    });
  });

  describe('GET /api/media', () => {
    const list = async (query: string, headers: Record<string, string> = {}) => {
      const response = await fetch(`${t.url}/api/media${query}`, {
        headers: { ...bearer(token), ...headers },
      });
      return response;
    };
    const usernames = async (query: string) => {
      const response = await list(query);
      expect(response.status, query).toBe(200);
      return memorySchema
        .array()
        .parse(await response.json())
        .map((memory) => memory.username);
    };

    it('lists memories newest first with their media URLs', async () => {
      const response = await list('');
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('private, no-cache');
      const body = memorySchema.array().parse(await response.json());
      expect(body.map((m) => m.username)).toEqual(['margaret', 'linus', 'grace', 'Ada_Lovelace']);
      const video = body.find((m) => m.username === 'linus');
      expect(video?.contentType).toBe('video/mp4');
      expect(video?.thumbnail).toBeNull();
      const image = body.find((m) => m.username === 'grace');
      expect(image?.media).toMatch(/^\/media\/memories\/[\w-]+\.png$/);
      const file = await fetch(`${t.url}${image?.thumbnail ?? ''}`);
      expect(file.headers.get('content-type')).toBe('image/webp');
    });

    it('searches username and caption, case-insensitive, as a substring', async () => {
      expect(await usernames('?search=ada')).toEqual(['margaret', 'Ada_Lovelace']);
      expect(await usernames('?search=%20GRACE%20')).toEqual(['grace']);
      expect(await usernames('?search=coffee')).toEqual(['grace']);
      expect(await usernames('?search=ENGINE%20AT')).toEqual(['Ada_Lovelace']);
      expect(await usernames('?search=nobody')).toEqual([]);
      expect(await usernames('?search=')).toHaveLength(4);
    });

    it('treats % and _ in a search as plain characters', async () => {
      expect(await usernames('?search=100%25')).toEqual(['linus']);
      expect(await usernames('?search=%25')).toEqual(['linus']);
      expect(await usernames('?search=fun_')).toEqual(['linus']);
      expect(await usernames('?search=a_l')).toEqual(['Ada_Lovelace']);
    });

    it('is paged like the gallery', async () => {
      expect(await usernames('?limit=2')).toEqual(['margaret', 'linus']);
      const second = memories[2]?._id ?? '';
      expect(await usernames(`?limit=2&before=${second}`)).toEqual(['grace', 'Ada_Lovelace']);
      expect(await usernames(`?search=ada&before=${memories[3]?._id ?? ''}`)).toEqual([
        'Ada_Lovelace',
      ]);
      for (const query of [
        '?limit=0',
        '?limit=201',
        '?before=nope',
        `?search=${'x'.repeat(101)}`,
      ]) {
        const response = await list(query);
        expect(response.status, query).toBe(400);
      }
    });

    it('answers 304 to an unchanged list, and a new ETag per query and after a change', async () => {
      const first = await list('?search=ada');
      const etag = first.headers.get('etag') ?? '';
      expect(etag).toMatch(/^W\/".+"$/);
      const again = await list('?search=ada', { 'if-none-match': etag });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
      expect((await list('?search=ADA ', { 'if-none-match': etag })).status).toBe(304);

      const other = await list('?search=grace');
      expect(other.headers.get('etag')).not.toBe(etag);
      expect((await list('?search=grace', { 'if-none-match': etag })).status).toBe(200);

      const [added] = await seedMemories(t.app.deps, [{ username: 'ada-two', text: 'later' }]);
      const changed = await list('?search=ada', { 'if-none-match': etag });
      expect(changed.status).toBe(200);
      expect(memorySchema.array().parse(await changed.json())[0]?.username).toBe('ada-two');
      const deleted = await fetch(`${t.url}/api/media/${added?._id ?? ''}`, {
        method: 'DELETE',
        headers: bearer(token),
      });
      expect(deleted.status).toBe(200);
    });
  });

  describe('DELETE /api/media/:id', () => {
    it('removes the row and the files, tells every client and writes the log', async () => {
      const [target] = await seedMemories(t.app.deps, [
        { username: 'victim', text: 'Blurry photo of a slide' },
      ]);
      if (!target) throw new Error('no seed');
      const stored = await findMemory(t.app.deps.db, target._id);
      expect(stored?.mediaKeys).toHaveLength(2);
      for (const key of stored?.mediaKeys ?? []) {
        expect(await t.app.deps.media.stat(key)).not.toBeNull();
      }

      const socket: Socket<ServerToClientEvents> = io(t.url, { transports: ['websocket'] });
      try {
        await new Promise<void>((resolve) => socket.on('connect', resolve));
        const event = new Promise<{ id: string }>((resolve) => socket.on('memoryDeleted', resolve));

        const response = await fetch(`${t.url}/api/media/${target._id}`, {
          method: 'DELETE',
          headers: bearer(token),
        });
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual({ message: 'Memory deleted' });
        expect(await event).toEqual({ id: target._id });
      } finally {
        socket.disconnect();
      }

      expect(await findMemory(t.app.deps.db, target._id)).toBeUndefined();
      for (const key of stored?.mediaKeys ?? []) {
        expect(await t.app.deps.media.stat(key)).toBeNull();
        expect((await fetch(`${t.url}/media/${key}`)).status).toBe(404);
      }
      const listed = await fetch(`${t.url}/api/media?search=victim`, { headers: bearer(token) });
      expect(await listed.json()).toEqual([]);

      const audit = await fetch(`${t.url}/api/admin/audit`, { headers: bearer(token) });
      expect(audit.status).toBe(200);
      const entries = adminAuditEntrySchema.array().parse(await audit.json());
      expect(entries[0]).toEqual({
        _id: expect.any(String) as string,
        adminUsername: 'moderator',
        action: 'memory.delete',
        targetId: target._id,
        memory: {
          username: 'victim',
          text: 'Blurry photo of a slide',
          contentType: 'image/png',
          createdAt: target.createdAt,
        },
        createdAt: clock.now().toISOString(),
      });

      // Deleting again: 404, and no second log row.
      const again = await fetch(`${t.url}/api/media/${target._id}`, {
        method: 'DELETE',
        headers: bearer(token),
      });
      expect(again.status).toBe(404);
      expect(await again.json()).toEqual({
        error: 'Memory not found',
        code: 'NOT_FOUND',
        messageId: 'notFound.memory',
      });
      const after = adminAuditEntrySchema
        .array()
        .parse(await (await fetch(`${t.url}/api/admin/audit`, { headers: bearer(token) })).json());
      expect(after.filter((entry) => entry.targetId === target._id)).toHaveLength(1);
    });

    it('deletes a video and its single file', async () => {
      const [clip] = await seedMemories(t.app.deps, [
        { username: 'v', text: 'clip', kind: 'video' },
      ]);
      const stored = await findMemory(t.app.deps.db, clip?._id ?? '');
      const response = await fetch(`${t.url}/api/media/${clip?._id ?? ''}`, {
        method: 'DELETE',
        headers: bearer(token),
      });
      expect(response.status).toBe(200);
      expect(stored?.mediaKeys).toHaveLength(1);
      expect(await t.app.deps.media.stat(stored?.mediaKeys[0] ?? '')).toBeNull();
    });

    it('answers 404 for an unknown id and 400 for something that is not an id', async () => {
      const unknown = await fetch(`${t.url}/api/media/${newId()}`, {
        method: 'DELETE',
        headers: bearer(token),
      });
      expect(unknown.status).toBe(404);
      const bad = await fetch(`${t.url}/api/media/not-an-id`, {
        method: 'DELETE',
        headers: bearer(token),
      });
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { error: string }).error).toMatch(/Invalid id/);
    });

    it('the log lists deletions newest first and pages', async () => {
      const seeded = await seedMemories(t.app.deps, [
        { username: 'one', text: 'first' },
        { username: 'two', text: 'second' },
      ]);
      for (const memory of seeded) {
        clock.advance(1000);
        await fetch(`${t.url}/api/media/${memory._id}`, {
          method: 'DELETE',
          headers: bearer(token),
        });
      }
      const page = adminAuditEntrySchema
        .array()
        .parse(
          await (
            await fetch(`${t.url}/api/admin/audit?limit=2`, { headers: bearer(token) })
          ).json(),
        );
      expect(page.map((entry) => entry.memory.username)).toEqual(['two', 'one']);
      const older = adminAuditEntrySchema.array().parse(
        await (
          await fetch(`${t.url}/api/admin/audit?limit=1&before=${page[1]?._id ?? ''}`, {
            headers: bearer(token),
          })
        ).json(),
      );
      expect(older).toHaveLength(1);
      expect((older[0]?._id ?? '') < (page[1]?._id ?? '')).toBe(true);
    });
  });
});

describe('admin tokens across restarts and configuration', () => {
  const secret = 'x'.repeat(40);

  it('survive a restart only with a SESSION_SECRET, and die with a new password', async () => {
    const env = { ADMIN_PASSWORD: PASSWORD, ADMIN_USERNAME: 'moderator', SESSION_SECRET: secret };
    const first = await startTestApp({ env });
    const token = await tokenFor(first);
    await first.close();

    const restarted = await startTestApp({ env });
    const noSecret = await startTestApp({
      env: { ADMIN_PASSWORD: PASSWORD, ADMIN_USERNAME: 'moderator' },
    });
    const newPassword = await startTestApp({
      env: { ...env, ADMIN_PASSWORD: 'a brand new password' },
    });
    try {
      expect((await fetch(`${restarted.url}/api/admin`, { headers: bearer(token) })).status).toBe(
        200,
      );
      expect((await fetch(`${noSecret.url}/api/admin`, { headers: bearer(token) })).status).toBe(
        401,
      );
      expect((await fetch(`${newPassword.url}/api/admin`, { headers: bearer(token) })).status).toBe(
        401,
      );
    } finally {
      await Promise.all([restarted.close(), noSecret.close(), newPassword.close()]);
    }
  });

  it('ADMIN_TOKEN_TTL sets the lifetime', async () => {
    const clock = new ManualClock('2026-11-22T09:00:00.000Z');
    const t = await startTestApp({
      clock,
      env: { ADMIN_PASSWORD: PASSWORD, ADMIN_USERNAME: 'moderator', ADMIN_TOKEN_TTL: '30m' },
    });
    try {
      const response = await login(t, { username: 'moderator', password: PASSWORD });
      const body = adminLoginResponseSchema.parse(await response.json());
      expect(body.expiresAt).toBe('2026-11-22T09:30:00.000Z');
      clock.advance(30 * 60_000);
      expect((await fetch(`${t.url}/api/admin`, { headers: bearer(body.token) })).status).toBe(401);
    } finally {
      await t.close();
    }
  });
});
