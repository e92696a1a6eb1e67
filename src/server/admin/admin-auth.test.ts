import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import type { Clock } from '../lib/clock.ts';
import { generatePassword, resolveAdminPassword } from './admin-auth.ts';
import { AdminTokenSigner, bearerToken } from '../auth/tokens.ts';
import { DEVICE_COOKIE, deviceCookiesOf } from './device-cookie.ts';
import { addressKey } from '../http/transport/address-key.ts';
import { LoginLimiter } from './login-limiter.ts';

const at = (iso: string) => new Date(iso);

describe('AdminTokenSigner', () => {
  const signer = new AdminTokenSigner({
    secret: 's'.repeat(32),
    username: 'admin',
    password: 'pw-1',
  });
  const now = at('2026-11-22T10:00:00.000Z');

  it('signs a token that verifies until it expires', async () => {
    const { token, session } = await signer.sign(now, 60_000);
    expect(session).toEqual({
      username: 'admin',
      issuedAt: now,
      expiresAt: at('2026-11-22T10:01:00.000Z'),
    });
    expect(await signer.verify(token, at('2026-11-22T10:00:59.000Z'))).toEqual({
      ok: true,
      session,
    });
    expect(await signer.verify(token, at('2026-11-22T10:01:00.000Z'))).toEqual({
      ok: false,
      reason: 'expired',
    });
  });

  it('refuses tokens from another secret, user or password, and tampered ones', async () => {
    const { token } = await signer.sign(now, 60_000);
    for (const other of [
      new AdminTokenSigner({ secret: 't'.repeat(32), username: 'admin', password: 'pw-1' }),
      new AdminTokenSigner({ secret: 's'.repeat(32), username: 'root', password: 'pw-1' }),
      new AdminTokenSigner({ secret: 's'.repeat(32), username: 'admin', password: 'pw-2' }),
    ]) {
      expect(await other.verify(token, now)).toEqual({ ok: false, reason: 'forged' });
    }
    const [header = '', payload = '', signature = ''] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as object;
    const longer = Buffer.from(JSON.stringify({ ...claims, exp: 9e9 })).toString('base64url');
    expect(await signer.verify(`${header}.${longer}.${signature}`, now)).toEqual({
      ok: false,
      reason: 'forged',
    });
    // The "none" algorithm, or a signature left off, is never accepted.
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    expect(await signer.verify(`${none}.${payload}.${signature}`, now)).toMatchObject({
      ok: false,
    });
    expect(await signer.verify(`${header}.${payload}.`, now)).toEqual({
      ok: false,
      reason: 'malformed',
    });
  });

  it('calls anything that is not a compact JWT of the right size malformed', async () => {
    for (const token of ['', 'abc', 'a.b', `a.${'a'.repeat(2000)}.${'b'.repeat(43)}`]) {
      expect(await signer.verify(token, now)).toEqual({ ok: false, reason: 'malformed' });
    }
    for (const token of ['a.b.c', 'a b.c.d', `e30.e30.${'b'.repeat(43)}`]) {
      expect((await signer.verify(token, now)).ok).toBe(false);
    }
  });
});

describe('bearerToken', () => {
  it('reads the token of a Bearer header only', () => {
    expect(bearerToken('Bearer abc.def')).toBe('abc.def');
    expect(bearerToken('bearer   abc')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeUndefined();
    expect(bearerToken('Bearer')).toBeUndefined();
    expect(bearerToken('Bearer a b')).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });
});

describe('LoginLimiter', () => {
  let time = 0;
  const clock: Clock = { now: () => new Date(time) };

  it('blocks a client after its failures until its window ends', () => {
    time = 1_000_000;
    const limiter = new LoginLimiter({ maxFailures: 3, windowMs: 10_000, clock });
    expect(limiter.recordFailure('a')).toBe(1);
    time += 4_000;
    limiter.recordFailure('a');
    expect(limiter.retryAfterMs('a')).toBe(0);
    limiter.recordFailure('a');
    expect(limiter.retryAfterMs('a')).toBe(6_000);
    expect(limiter.retryAfterMs('b')).toBe(0);
    time += 6_000;
    expect(limiter.retryAfterMs('a')).toBe(0);
    expect(limiter.recordFailure('a')).toBe(1);
  });

  it('forgets a client on success, and the oldest clients when it holds too many', () => {
    time = 0;
    const limiter = new LoginLimiter({ maxFailures: 1, windowMs: 10_000, clock, maxClients: 2 });
    limiter.recordFailure('a');
    limiter.reset('a');
    expect(limiter.retryAfterMs('a')).toBe(0);
    limiter.recordFailure('x');
    limiter.recordFailure('y');
    limiter.recordFailure('z');
    expect(limiter.retryAfterMs('x')).toBe(0);
    expect(limiter.retryAfterMs('y')).toBeGreaterThan(0);
    expect(limiter.retryAfterMs('z')).toBeGreaterThan(0);
  });
});

describe('addressKey', () => {
  it('keeps an IPv4 address, reads an IPv4-mapped one as IPv4, and an IPv6 one by its /64', () => {
    expect(addressKey('198.51.100.7')).toBe('198.51.100.7');
    expect(addressKey('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(addressKey('::FFFF:c633:6407')).toBe('198.51.100.7');
    expect(addressKey('2001:db8:5:6::1')).toBe('2001:db8:5:6::/64');
    expect(addressKey('2001:0DB8:0005:0006:ffff:ffff:ffff:fffe')).toBe('2001:db8:5:6::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('::')).toBe('0:0:0:0::/64');
    expect(addressKey('64:ff9b::198.51.100.7')).toBe('64:ff9b:0:0::/64');
    // Not an address: kept as it is (never thrown on).
    for (const odd of [
      '1::2::3',
      ':::',
      '2001:db8:zz::1',
      '::ffff:1.2.3.400',
      '1:2:3:4:5:6:7:8:9',
    ]) {
      expect(addressKey(odd)).toBe(odd);
    }
  });
});

describe('deviceCookiesOf', () => {
  it('reads the values of the device cookie only, a few at most', () => {
    expect(deviceCookiesOf(undefined)).toEqual([]);
    expect(deviceCookiesOf('theme=dark')).toEqual([]);
    expect(deviceCookiesOf(`theme=dark; ${DEVICE_COOKIE}=a.b.c;x=1`)).toEqual(['a.b.c']);
    expect(deviceCookiesOf(`${DEVICE_COOKIE}="a.b.c"`)).toEqual(['a.b.c']);
    expect(deviceCookiesOf(`x${DEVICE_COOKIE}=1; ${DEVICE_COOKIE}x=2; ${DEVICE_COOKIE}`)).toEqual(
      [],
    );
    const many = Array.from({ length: 10 }, (_, i) => `${DEVICE_COOKIE}=v${i}`).join('; ');
    expect(deviceCookiesOf(many)).toEqual(['v0', 'v1', 'v2', 'v3']);
  });
});

describe('admin password', () => {
  it('uses ADMIN_PASSWORD when set, without logging it', () => {
    const warnings: unknown[][] = [];
    const log = { warn: (...args: unknown[]) => warnings.push(args) };
    const config = loadConfig({ ADMIN_PASSWORD: 'a configured password' });
    expect(resolveAdminPassword(config, log as never)).toBe('a configured password');
    expect(warnings).toEqual([]);
  });

  it('without one, generates a strong password per start and logs that it did, not the password', () => {
    const warnings: string[] = [];
    const log = { warn: (_fields: unknown, message: string) => warnings.push(message) };
    const config = loadConfig({ ADMIN_USERNAME: 'moderator' });
    const first = resolveAdminPassword(config, log as never);
    const second = resolveAdminPassword(config, log as never);
    expect(first).toMatch(/^[\w-]{24}$/);
    expect(second).not.toBe(first);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).not.toContain(first);
    expect(warnings[1]).not.toContain(second);
    expect(warnings[0]).toContain('username "moderator"');
    expect(warnings[0]).toMatch(/ADMIN_PASSWORD is not set/);
    expect(new Set(Array.from({ length: 50 }, generatePassword)).size).toBe(50);
  });
});

describe('ADMIN_TOKEN_TTL', () => {
  it('defaults to 12 hours and reads durations', () => {
    expect(loadConfig({}).adminTokenTtlMs).toBe(12 * 3_600_000);
    expect(loadConfig({ ADMIN_TOKEN_TTL: '90m' }).adminTokenTtlMs).toBe(90 * 60_000);
    expect(loadConfig({ ADMIN_TOKEN_TTL: '3600' }).adminTokenTtlMs).toBe(3_600_000);
    expect(loadConfig({ ADMIN_TOKEN_TTL: '1.5h' }).adminTokenTtlMs).toBe(5_400_000);
    expect(loadConfig({ ADMIN_TOKEN_TTL: '2D' }).adminTokenTtlMs).toBe(2 * 86_400_000);
  });

  it('refuses nonsense and lifetimes outside a minute to 30 days', () => {
    for (const value of ['soon', '12x', '-1h', '30s', '31d']) {
      expect(() => loadConfig({ ADMIN_TOKEN_TTL: value }), value).toThrow(/ADMIN_TOKEN_TTL/);
    }
  });
});
