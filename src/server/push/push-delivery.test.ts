import { execFileSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicConfigSchema } from '../../shared/schemas/config.ts';
import { type PushPayload, pushPayloadSchema } from '../../shared/schemas/announcement.ts';
import { freePort } from '../../../tests/support/free-port.ts';
import { startServer, stopServer } from '../../../tests/support/server-process.ts';
import { addRoom } from '../../../tests/support/programme.ts';
import { adminToken, call, joinAttendee } from '../../../tests/support/speakers.ts';

const PASSWORD = 'push-delivery-admin-password';

/** A request the receiver got, as a push service sees it. */
interface Delivery {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * A local push service over HTTPS with a self-signed certificate (made here with openssl), which
 * the server trusts through NODE_EXTRA_CA_CERTS: `/gone/…` answers 410, `/missing/…` 404,
 * `/broken/…` 500, anything else 201. Answers wait while `hold` is set.
 */
async function startReceiver(dir: string) {
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1'],
      ...['-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1'],
      ...['-addext', 'subjectAltName=IP:127.0.0.1'],
    ],
    { stdio: 'ignore' },
  );
  const deliveries: Delivery[] = [];
  let release: () => void = () => {};
  let held: Promise<void> = Promise.resolve();
  const server = https.createServer(
    { key: await fs.readFile(key), cert: await fs.readFile(cert) },
    (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const url = request.url ?? '/';
        deliveries.push({ path: url, headers: request.headers, body: Buffer.concat(chunks) });
        void held.then(() => {
          const status = url.startsWith('/gone/')
            ? 410
            : url.startsWith('/missing/')
              ? 404
              : url.startsWith('/broken/')
                ? 500
                : 201;
          response.writeHead(status).end();
        });
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the receiver is not listening');
  return {
    origin: `https://127.0.0.1:${address.port}`,
    cert,
    deliveries,
    hold() {
      held = new Promise((resolve) => (release = resolve));
    },
    release: () => release(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A browser's side of a subscription: its keys, and the decryption of what arrives (RFC 8291). */
function device() {
  const ecdh = crypto.createECDH('prime256v1');
  const publicKey = ecdh.generateKeys();
  const auth = crypto.randomBytes(16);
  const hmac = (key: Buffer, ...data: Buffer[]) =>
    crypto.createHmac('sha256', key).update(Buffer.concat(data)).digest();
  return {
    keys: { p256dh: publicKey.toString('base64url'), auth: auth.toString('base64url') },
    decrypt(body: Buffer): string {
      // aes128gcm (RFC 8188): salt, record size, the sender's key, then one record.
      const salt = body.subarray(0, 16);
      const keyLength = body.readUInt8(20);
      const senderKey = body.subarray(21, 21 + keyLength);
      const record = body.subarray(21 + keyLength);
      const shared = ecdh.computeSecret(senderKey);
      const ikm = hmac(
        hmac(auth, shared),
        Buffer.from('WebPush: info\0'),
        publicKey,
        senderKey,
        Buffer.from([1]),
      );
      const prk = hmac(salt, ikm);
      const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0'), Buffer.from([1]));
      const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0'), Buffer.from([1]));
      const decipher = crypto.createDecipheriv(
        'aes-128-gcm',
        cek.subarray(0, 16),
        nonce.subarray(0, 12),
      );
      decipher.setAuthTag(record.subarray(-16));
      const padded = Buffer.concat([decipher.update(record.subarray(0, -16)), decipher.final()]);
      // The last record ends with the delimiter 2 and any zero padding.
      const end = padded.lastIndexOf(2);
      return padded.subarray(0, end).toString('utf8');
    },
  };
}

describe('pushing announcements to a push service', () => {
  let dir: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
  let server: ChildProcess | undefined;
  let url: string;
  let admin: string;
  let grace: string;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'confab-push-'));
    const started = await startReceiver(dir);
    receiver = started;
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    server = await startServer(path.join(dir, 'data'), port, {
      ADMIN_PASSWORD: PASSWORD,
      NODE_EXTRA_CA_CERTS: started.cert,
      PUSH_ALLOWED_ORIGINS: started.origin,
    });
    admin = await adminToken(url, PASSWORD);
    grace = await joinAttendee(url, 'grace');
  }, 60_000);
  afterAll(async () => {
    if (server) await stopServer(server);
    await receiver?.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  const push = () => {
    if (!receiver) throw new Error('the receiver did not start');
    return receiver;
  };
  const subscribe = async (
    endpoint: string,
    keys: { p256dh: string; auth: string },
    language?: string,
  ) => {
    const response = await call(url, 'POST', '/api/push/subscriptions', {
      token: grace,
      body: { endpoint, expirationTime: null, keys, ...(language ? { language } : {}) },
    });
    expect(response.status, await response.clone().text()).toBe(201);
  };
  const announce = async (body: Record<string, unknown>) => {
    const response = await call(url, 'POST', '/api/admin/announcements', { token: admin, body });
    expect(response.status, await response.clone().text()).toBe(201);
    return (await response.json()) as { _id: string };
  };

  it('delivers an encrypted announcement without the 201 waiting, and drops gone devices', async () => {
    const phone = device();
    const other = device();
    await subscribe(`${push().origin}/ok/phone`, phone.keys);
    await subscribe(`${push().origin}/gone/old-phone`, other.keys);
    await subscribe(`${push().origin}/missing/old-laptop`, other.keys);
    await subscribe(`${push().origin}/broken/tablet`, other.keys);
    const { vapidPublicKey } = publicConfigSchema.parse(
      await (await fetch(`${url}/api/config`)).json(),
    );

    // The push service does not answer until the admin has had the 201.
    push().hold();
    const announcement = await announce({ text: 'Keynote moved to Hall B' });
    push().release();
    await expect.poll(() => push().deliveries.length, { timeout: 15_000 }).toBe(4);

    const delivered = push().deliveries.find((d) => d.path === '/ok/phone');
    if (!delivered) throw new Error('nothing reached the phone');
    expect(delivered.headers['content-encoding']).toBe('aes128gcm');
    expect(delivered.headers.urgency).toBe('high');
    expect(Number(delivered.headers.ttl)).toBeGreaterThan(0);
    expect(delivered.headers.authorization).toMatch(
      new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${vapidPublicKey}$`),
    );
    const payload: PushPayload = pushPayloadSchema.parse(JSON.parse(phone.decrypt(delivered.body)));
    expect(payload).toEqual({
      title: 'Announcement · Confab',
      body: 'Keynote moved to Hall B',
      url: `/home?announcement=${announcement._id}`,
      announcementId: announcement._id,
      lang: 'en',
    });
    // The payload stays small: a push service takes 4 KB at most.
    expect(delivered.body.length).toBeLessThan(1024);

    // The next one reaches the devices still there: 404 and 410 removed theirs; a 500 did not.
    push().deliveries.length = 0;
    await announce({ text: 'Coffee is ready' });
    await expect.poll(() => push().deliveries.length, { timeout: 15_000 }).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(
      push()
        .deliveries.map((d) => d.path)
        .sort(),
    ).toEqual(['/broken/tablet', '/ok/phone']);
  });

  it("writes the title's fixed words in each subscriber's language, the text as written", async () => {
    const french = device();
    const arabic = device();
    await subscribe(`${push().origin}/ok/french`, french.keys, 'fr');
    await subscribe(`${push().origin}/ok/arabic`, arabic.keys, 'ar');
    push().deliveries.length = 0;
    const announcement = await announce({ text: 'Keynote moved to Hall B' });
    const reached = () => push().deliveries.map((d) => d.path);
    await expect
      .poll(() => ['/ok/french', '/ok/arabic'].every((path) => reached().includes(path)), {
        timeout: 15_000,
      })
      .toBe(true);
    const payloadOf = (path: string, phone: ReturnType<typeof device>) => {
      const delivered = push().deliveries.find((d) => d.path === path);
      if (!delivered) throw new Error(`nothing reached ${path}`);
      return pushPayloadSchema.parse(JSON.parse(phone.decrypt(delivered.body)));
    };
    expect(payloadOf('/ok/french', french)).toEqual({
      title: 'Annonce · Confab',
      body: 'Keynote moved to Hall B',
      url: `/home?announcement=${announcement._id}`,
      announcementId: announcement._id,
      lang: 'fr',
    });
    expect(payloadOf('/ok/arabic', arabic)).toMatchObject({ title: 'إعلان · Confab', lang: 'ar' });
  });

  it('refuses a subscription in a language the app does not ship', async () => {
    const response = await call(url, 'POST', '/api/push/subscriptions', {
      token: grace,
      body: {
        endpoint: `${push().origin}/ok/klingon`,
        expirationTime: null,
        keys: device().keys,
        language: 'tlh',
      },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'VALIDATION' });
  });

  it('pushes nothing for a room’s announcement: it is for the people in the room', async () => {
    const room = await addRoom(url, admin, 'Hall B');
    push().deliveries.length = 0;
    await announce({ text: 'Hall B is full', roomId: room._id });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(push().deliveries).toEqual([]);
  });
});
