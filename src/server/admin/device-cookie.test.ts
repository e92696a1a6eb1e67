import { describe, expect, it } from 'vitest';
import {
  type TestApp,
  startTestApp,
  testDatabases,
  useTestApp,
} from '../../../tests/support/test-app.ts';
import { ManualClock } from '../../../tests/support/manual-clock.ts';

const PASSWORD = 'correct horse battery staple';
const SECRET = 'a-session-secret-of-at-least-32-characters';
const MINUTE = 60_000;

interface Attempt {
  password?: string;
  username?: string;
  /** The address the proxy in front saw. */
  from: string;
  /** The `Cookie` header the browser sends. */
  cookie?: string;
  headers?: Record<string, string>;
}

function login(t: TestApp, attempt: Attempt): Promise<Response> {
  return fetch(`${t.url}/api/admin/login`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': attempt.from,
      ...(attempt.cookie === undefined ? {} : { cookie: attempt.cookie }),
      ...attempt.headers,
    },
    body: JSON.stringify({
      username: attempt.username ?? 'moderator',
      password: attempt.password ?? PASSWORD,
    }),
  });
}

/** The `name=value` part of each `Set-Cookie` of an answer, as a browser sends it back. */
const cookiesOf = (response: Response): string =>
  response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');

/** Logs in with the right password from `from`; answers the device cookie it was given. */
async function deviceCookie(t: TestApp, from: string, cookie?: string): Promise<string> {
  const response = await login(t, { from, ...(cookie ? { cookie } : {}) });
  expect(response.status).toBe(200);
  const cookies = cookiesOf(response);
  expect(cookies).toMatch(/^confab-admin-device=[\w-]+\.[\w-]+\.[\w-]{43}$/);
  return cookies;
}

describe.each(testDatabases)('admin device cookies on %s', (database) => {
  const clock = new ManualClock('2026-11-27T09:00:00.000Z');
  const t = useTestApp({
    database,
    clock,
    env: {
      ADMIN_USERNAME: 'moderator',
      ADMIN_PASSWORD: PASSWORD,
      SESSION_SECRET: SECRET,
      TRUST_PROXY: 'true',
    },
  });

  /** Fails ten times from `from`, a minute apart (the account's own wait over each time). */
  async function lockOut(from: string, cookie?: string): Promise<void> {
    for (let attempt = 1; attempt <= 10; attempt++) {
      clock.advance(MINUTE);
      const response = await login(t, {
        from,
        password: `guess-${attempt}`,
        ...(cookie ? { cookie } : {}),
      });
      expect(response.status, `attempt ${attempt}`).toBe(401);
    }
    clock.advance(MINUTE);
  }

  it('a successful login sets a long-lived, HttpOnly, SameSite=Strict device cookie for /api/admin', async () => {
    clock.advance(60 * MINUTE);
    const plain = await login(t, { from: '192.0.2.70' });
    expect(plain.status).toBe(200);
    const [line = ''] = plain.headers.getSetCookie();
    const attributes = line.split(';').map((part) => part.trim());
    expect(attributes.slice(1).sort()).toEqual(
      ['HttpOnly', 'Max-Age=15552000', 'Path=/api/admin', 'SameSite=Strict'].sort(),
    );
    // Behind a proxy that says the browser came over HTTPS, the cookie is sent over HTTPS only.
    const secure = await login(t, {
      from: '192.0.2.70',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(secure.headers.getSetCookie()[0]).toMatch(/; Secure(;|$)/);
    // A failure sets nothing.
    const failed = await login(t, { from: '192.0.2.70', password: 'nope' });
    expect(failed.status).toBe(401);
    expect(failed.headers.getSetCookie()).toEqual([]);
  });

  it('a browser that logged in before gets in although others on its address locked it out; an unknown one waits', async () => {
    clock.advance(60 * MINUTE);
    const venue = '198.51.100.20';
    const organiser = await deviceCookie(t, venue);
    await lockOut(venue);
    // Someone on the venue's Wi-Fi made ten wrong guesses: unknown devices there are refused.
    const unknown = await login(t, { from: venue });
    expect(unknown.status).toBe(429);
    expect(Number(unknown.headers.get('retry-after'))).toBeGreaterThan(0);
    // The organiser's browser sends its device cookie and is let in, and given a new one.
    const trusted = await login(t, { from: venue, cookie: `theme=dark; ${organiser}` });
    expect(trusted.status).toBe(200);
    expect(cookiesOf(trusted)).toMatch(/^confab-admin-device=/);
    // That does not lift the address's lock for the others.
    expect((await login(t, { from: venue })).status).toBe(429);
  });

  it('is not held up by the account’s wait after guesses from many addresses', async () => {
    clock.advance(60 * MINUTE);
    const organiser = await deviceCookie(t, '192.0.2.80');
    let last: Response | undefined;
    for (let attempt = 0; attempt < 40; attempt++) {
      last = await login(t, { from: `203.0.113.${attempt}`, password: `guess-${attempt}` });
      await last.arrayBuffer();
    }
    expect(last?.status).toBe(429);
    expect((await login(t, { from: '192.0.2.81' })).status).toBe(429);
    expect((await login(t, { from: '192.0.2.81', cookie: organiser })).status).toBe(200);
  });

  it('does not trust a forged, tampered, expired or other account’s cookie', async () => {
    clock.advance(60 * MINUTE);
    const venue = '198.51.100.30';
    const organiser = await deviceCookie(t, venue);
    // The same secret and password but another admin name: its cookies name another account.
    const other = await startTestApp({
      clock,
      env: {
        ADMIN_USERNAME: 'someone-else',
        ADMIN_PASSWORD: PASSWORD,
        SESSION_SECRET: SECRET,
        TRUST_PROXY: 'true',
      },
    });
    let otherAccount: string;
    try {
      const response = await login(other, { from: venue, username: 'someone-else' });
      expect(response.status).toBe(200);
      otherAccount = cookiesOf(response);
    } finally {
      await other.close();
    }
    await lockOut(venue);

    const [name, value = ''] = organiser.split('=');
    const [header, payload, signature = ''] = value.split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as object;
    const renamed = Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else' })).toString(
      'base64url',
    );
    const flipped = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const cookie of [
      otherAccount,
      `${name}=${header}.${payload}.${flipped}`,
      `${name}=${header}.${renamed}.${signature}`,
      `${name}=not-a-token`,
      `${name}=`,
      `${name}=${header}.${payload}`,
    ]) {
      const response = await login(t, { from: venue, cookie });
      expect(response.status, cookie).toBe(429);
      await response.arrayBuffer();
    }
    // A good cookie for another name typed at the login is not trusted for that name.
    expect(
      (await login(t, { from: venue, username: 'someone-else', cookie: organiser })).status,
    ).toBe(429);

    // 180 days later the cookie has expired.
    clock.advance(181 * 24 * 60 * MINUTE);
    const freshVenue = '198.51.100.31';
    await lockOut(freshVenue);
    expect((await login(t, { from: freshVenue, cookie: organiser })).status).toBe(429);
  });

  it('a device cookie that fails ten times is locked out itself, and no other device with it', async () => {
    clock.advance(60 * MINUTE);
    const stolen = await deviceCookie(t, '192.0.2.90');
    const organiser = await deviceCookie(t, '192.0.2.91');
    for (let attempt = 1; attempt <= 10; attempt++) {
      const response = await login(t, {
        from: '192.0.2.90',
        cookie: stolen,
        password: `guess-${attempt}`,
      });
      expect(response.status, `attempt ${attempt}`).toBe(401);
    }
    const locked = await login(t, { from: '192.0.2.90', cookie: stolen });
    expect(locked.status).toBe(429);
    expect(locked.headers.get('retry-after')).toBe(String(15 * 60));
    // Its failures were its own: neither the address nor the account waits for them.
    expect((await login(t, { from: '192.0.2.91', cookie: organiser })).status).toBe(200);
    expect((await login(t, { from: '192.0.2.90' })).status).toBe(200);
    clock.advance(15 * MINUTE);
    expect((await login(t, { from: '192.0.2.90', cookie: stolen })).status).toBe(200);
  });

  it('counts the addresses of one IPv6 /64 together, and an IPv4-mapped address as its IPv4 one', async () => {
    clock.advance(60 * MINUTE);
    for (let attempt = 1; attempt <= 10; attempt++) {
      clock.advance(MINUTE);
      const response = await login(t, {
        from: `2001:db8:5:6:${attempt.toString(16)}::${attempt}`,
        password: `guess-${attempt}`,
      });
      expect(response.status, `attempt ${attempt}`).toBe(401);
    }
    clock.advance(MINUTE);
    const sameNetwork = await login(t, { from: '2001:0DB8:5:6:ffff:ffff:ffff:fffe' });
    expect(sameNetwork.status).toBe(429);
    expect((await login(t, { from: '2001:db8:5:7::1' })).status).toBe(200);

    clock.advance(60 * MINUTE);
    await lockOut('::ffff:198.51.100.40');
    expect((await login(t, { from: '198.51.100.40' })).status).toBe(429);
    expect((await login(t, { from: '::ffff:c633:6428' })).status).toBe(429);
  });
});
