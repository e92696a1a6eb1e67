import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicConfigSchema } from '../../shared/schemas/config.ts';
import { attendeeExportSchema } from '../../shared/schemas/privacy.ts';
import { startTestApp, testDatabases, useTestApp } from '../../../tests/support/test-app.ts';
import {
  adminToken,
  call,
  errorOf,
  forged,
  joinAttendee,
} from '../../../tests/support/speakers.ts';
import { keepVapidKeys } from './push.repository.ts';
import { isAllowedPushEndpoint } from './push-endpoints.ts';

const PASSWORD = 'push-admin-password';
const RECEIVER = 'https://127.0.0.1:9443';

/** A device's keys as a browser makes them: a P-256 public point and 16 random bytes. */
function deviceKeys() {
  const ecdh = crypto.createECDH('prime256v1');
  return {
    p256dh: ecdh.generateKeys().toString('base64url'),
    auth: crypto.randomBytes(16).toString('base64url'),
  };
}

const subscription = (endpoint: string) => ({ endpoint, expirationTime: null, keys: deviceKeys() });
const fcm = () => `https://fcm.googleapis.com/fcm/send/${crypto.randomUUID()}`;

describe('the push endpoints allowed', () => {
  it('allows the browsers’ push services and the configured origins, over https only', () => {
    const allowed = [
      'https://fcm.googleapis.com/fcm/send/abc:def',
      'https://updates.push.services.mozilla.com/wpush/v2/gAAAA',
      'https://push.services.mozilla.com/wpush/v1/gAAAA',
      'https://web.push.apple.com/QGuQyavXut',
      'https://wns2-by3p.notify.windows.com/w/?token=BQYAAA',
      `${RECEIVER}/push/1`,
    ];
    for (const endpoint of allowed) expect(isAllowedPushEndpoint(endpoint, [RECEIVER])).toBe(true);
    const refused = [
      'http://fcm.googleapis.com/fcm/send/abc',
      'https://fcm.googleapis.com:8443/fcm/send/abc',
      'https://user:pass@fcm.googleapis.com/fcm/send/abc',
      'https://fcm.googleapis.com.evil.example/fcm/send/abc',
      'https://evilfcm.googleapis.com/x',
      'https://notify.windows.com/x',
      'https://evil-notify.windows.com/x',
      'https://169.254.169.254/latest/meta-data/',
      'https://127.0.0.1/push',
      'https://127.0.0.1:9444/push',
      'http://127.0.0.1:9443/push',
      'https://localhost:9443/push',
      'file:///etc/passwd',
      'not a url',
    ];
    for (const endpoint of refused) {
      expect(isAllowedPushEndpoint(endpoint, [RECEIVER]), endpoint).toBe(false);
    }
  });
});

describe.each(testDatabases)('push subscriptions on %s', (database) => {
  const t = useTestApp({
    database,
    env: {
      ADMIN_PASSWORD: PASSWORD,
      WRITE_RATE_LIMIT: '100000',
      LOG_LEVEL: 'error',
      PUSH_ALLOWED_ORIGINS: RECEIVER,
    },
  });
  let grace: string;
  let linus: string;

  beforeAll(async () => {
    grace = await joinAttendee(t.url, 'grace');
    linus = await joinAttendee(t.url, 'linus');
  });

  const stored = () =>
    t.app.deps.db
      .selectFrom('push_subscriptions')
      .select(['endpoint', 'attendee_id'])
      .orderBy('endpoint')
      .execute();
  const subscribe = (body: unknown, token: string | null) =>
    call(t.url, 'POST', '/api/push/subscriptions', { token: token ?? undefined, body });
  const unsubscribe = (body: unknown, token: string | null) =>
    call(t.url, 'DELETE', '/api/push/subscriptions', { token: token ?? undefined, body });

  it('gives the VAPID public key in the public configuration', async () => {
    const config = publicConfigSchema.parse(await (await fetch(`${t.url}/api/config`)).json());
    // An uncompressed P-256 point, base64url: 65 bytes.
    expect(Buffer.from(config.vapidPublicKey, 'base64url')).toHaveLength(65);
  });

  it('subscribes a device once per endpoint, and unsubscribes it', async () => {
    const endpoint = fcm();
    expect((await subscribe(subscription(endpoint), grace)).status).toBe(201);
    // Subscribing again (new keys, or another attendee on the browser) replaces the row.
    expect((await subscribe(subscription(endpoint), grace)).status).toBe(201);
    expect((await subscribe(subscription(endpoint), linus)).status).toBe(201);
    expect((await stored()).filter((row) => row.endpoint === endpoint)).toHaveLength(1);
    expect((await stored()).find((row) => row.endpoint === endpoint)?.attendee_id).toBeTruthy();
    // Grace's token does not remove linus's device.
    expect((await unsubscribe({ endpoint }, grace)).status).toBe(200);
    expect((await stored()).map((row) => row.endpoint)).toContain(endpoint);
    const response = await unsubscribe(subscription(endpoint), linus);
    expect(response.status).toBe(200);
    expect((await stored()).map((row) => row.endpoint)).not.toContain(endpoint);
  });

  it('accepts an origin of PUSH_ALLOWED_ORIGINS', async () => {
    const endpoint = `${RECEIVER}/push/${crypto.randomUUID()}`;
    expect((await subscribe(subscription(endpoint), grace)).status).toBe(201);
    expect((await unsubscribe({ endpoint }, grace)).status).toBe(200);
  });

  it('keeps an attendee’s five newest devices', async () => {
    const ada = await joinAttendee(t.url, 'ada');
    const endpoints = Array.from({ length: 7 }, fcm);
    for (const endpoint of endpoints) {
      expect((await subscribe(subscription(endpoint), ada)).status).toBe(201);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const kept = (await stored()).filter((row) => endpoints.includes(row.endpoint));
    expect(kept).toHaveLength(5);
  });

  it('refuses a missing, forged or foreign token, and stores nothing', async () => {
    const before = await stored();
    const admin = await adminToken(t.url, PASSWORD);
    for (const token of [null, forged(grace), admin, 'nonsense']) {
      const response = await subscribe(subscription(fcm()), token);
      expect(response.status).toBe(401);
      expect(await errorOf(response)).toBeTruthy();
      expect((await unsubscribe({ endpoint: fcm() }, token)).status).toBe(401);
    }
    expect(await stored()).toEqual(before);
  });

  it('refuses endpoints on other hosts, http endpoints and bad keys with 400, storing nothing', async () => {
    const before = await stored();
    const keys = deviceKeys();
    const bodies: unknown[] = [
      subscription('http://fcm.googleapis.com/fcm/send/abc'),
      subscription('https://example.com/push'),
      subscription('https://169.254.169.254/latest/meta-data/'),
      subscription('https://127.0.0.1:1/push'),
      subscription(`https://localhost:${new URL(t.url).port}/api/admin/purge`),
      subscription('https://fcm.googleapis.com:444/fcm/send/abc'),
      subscription('javascript:alert(1)'),
      subscription(`https://fcm.googleapis.com/${'a'.repeat(1100)}`),
      { endpoint: fcm() },
      { endpoint: fcm(), keys: { p256dh: keys.p256dh } },
      { endpoint: fcm(), keys: { p256dh: 'short', auth: keys.auth } },
      { endpoint: fcm(), keys: { p256dh: keys.p256dh, auth: `${keys.auth}AAAA` } },
      { endpoint: fcm(), keys: { p256dh: `${keys.p256dh.slice(0, -1)}+`, auth: keys.auth } },
      { endpoint: fcm(), keys: { p256dh: `A${keys.p256dh.slice(1)}`, auth: keys.auth } },
      { endpoint: 42, keys },
      [],
      null,
    ];
    for (const body of bodies) {
      const response = await subscribe(body, grace);
      expect(response.status, JSON.stringify(body).slice(0, 120)).toBe(400);
      expect(await errorOf(response)).toBeTruthy();
    }
    const huge = await call(t.url, 'POST', '/api/push/subscriptions', {
      token: grace,
      raw: JSON.stringify({ ...subscription(fcm()), padding: 'x'.repeat(4096) }),
    });
    expect(huge.status).toBe(413);
    expect(await stored()).toEqual(before);
  });

  it('lists an attendee’s devices in their export, and their erasure removes them', async () => {
    const margaret = await joinAttendee(t.url, 'margaret');
    const endpoint = fcm();
    expect((await subscribe(subscription(endpoint), margaret)).status).toBe(201);
    const exported = attendeeExportSchema.parse(
      await (await call(t.url, 'GET', '/api/attendees/me/export', { token: margaret })).json(),
    );
    expect(exported.pushSubscriptions.map((device) => device.endpoint)).toEqual([endpoint]);
    expect((await call(t.url, 'DELETE', '/api/attendees/me', { token: margaret })).status).toBe(
      200,
    );
    expect((await stored()).map((row) => row.endpoint)).not.toContain(endpoint);
  });

  it('a purge removes every device', async () => {
    expect((await subscribe(subscription(fcm()), grace)).status).toBe(201);
    const admin = await adminToken(t.url, PASSWORD);
    const response = await call(t.url, 'POST', '/api/admin/purge', {
      token: admin,
      body: { confirm: t.app.deps.settings.current.eventName },
    });
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await stored()).toEqual([]);
  });
});

describe('the VAPID keys', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'confab-vapid-'));
  });
  afterAll(() => fs.rm(dataDir, { recursive: true, force: true }));

  const keyOf = async (url: string) =>
    publicConfigSchema.parse(await (await fetch(`${url}/api/config`)).json()).vapidPublicKey;

  it('are made once: two apps on one database share them, and a restart keeps them', async () => {
    const env = { DATA_DIR: dataDir, LOG_LEVEL: 'error' };
    const first = await startTestApp({ env });
    const second = await startTestApp({ env });
    const key = await keyOf(first.url);
    expect(await keyOf(second.url)).toBe(key);
    await Promise.all([first.close(), second.close()]);
    const restarted = await startTestApp({ env });
    expect(await keyOf(restarted.url)).toBe(key);
    // Made again by two instances at the same moment on a fresh database: the first written
    // wins for both.
    const { db } = restarted.app.deps;
    await db.deleteFrom('push_keys').execute();
    const made = (n: number) => ({ publicKey: `public-${n}`, privateKey: `private-${n}` });
    const [a, b] = await Promise.all([
      keepVapidKeys(db, made(1), new Date().toISOString()),
      keepVapidKeys(db, made(2), new Date().toISOString()),
    ]);
    expect(a).toEqual(b);
    expect(await db.selectFrom('push_keys').selectAll().execute()).toHaveLength(1);
    await restarted.close();
  });
});
