import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import webpush from 'web-push';
import { startAppServer } from '../lib/processes.ts';
import { type Row, fmt } from '../lib/report.ts';

/** Devices subscribed: an attendee keeps five, so DEVICES / 5 attendees join. */
const DEVICES = Number(process.env.BENCH_PUSH_DEVICES ?? 1000);
const PASSWORD = 'bench-push-admin';
/** The server's own bound on pushes in flight (push-sender.ts), used by the reference too. */
const CONCURRENCY = 64;

/** A local push service over HTTPS (a self-signed certificate made with openssl): answers 201. */
async function startReceiver(dir: string) {
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
      ...['-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1'],
      ...['-addext', 'subjectAltName=IP:127.0.0.1'],
    ],
    { stdio: 'ignore' },
  );
  let received = 0;
  let last = 0;
  const server = https.createServer(
    { key: await fs.readFile(key), cert: await fs.readFile(cert) },
    (request, response) => {
      request.resume();
      request.on('end', () => {
        received += 1;
        last = performance.now();
        response.writeHead(201).end();
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the receiver is not listening');
  return {
    origin: `https://127.0.0.1:${address.port}`,
    cert,
    reset: () => {
      received = 0;
      last = 0;
    },
    received: () => received,
    last: () => last,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const post = async (url: string, body: unknown, token?: string) => {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return response.json() as Promise<Record<string, unknown>>;
};

async function waitFor(done: () => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
}

/**
 * One announcement to everyone, pushed by the app to DEVICES subscriptions on a local HTTPS push
 * service: the time from the admin's POST to the last delivery. Reference, same run: the same
 * pushes sent straight with web-push from this process, CONCURRENCY at a time (encryption,
 * signing and HTTPS without the app: what the app adds is reading the subscriptions and the
 * event).
 */
export async function pushFanout(): Promise<Row[]> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'confab-bench-push-'));
  const receiver = await startReceiver(dir);
  const server = await startAppServer({
    ADMIN_PASSWORD: PASSWORD,
    NODE_EXTRA_CA_CERTS: receiver.cert,
    PUSH_ALLOWED_ORIGINS: receiver.origin,
  });
  try {
    const ecdh = crypto.createECDH('prime256v1');
    const keys = {
      p256dh: ecdh.generateKeys().toString('base64url'),
      auth: crypto.randomBytes(16).toString('base64url'),
    };
    const endpoints = Array.from({ length: DEVICES }, (_, i) => `${receiver.origin}/push/${i}`);
    for (let a = 0; a * 5 < DEVICES; a++) {
      const { token } = (await post(`${server.url}/api/attendees`, { username: `pusher${a}` })) as {
        token: string;
      };
      await Promise.all(
        endpoints
          .slice(a * 5, a * 5 + 5)
          .map((endpoint) =>
            post(`${server.url}/api/push/subscriptions`, { endpoint, keys }, token),
          ),
      );
    }
    const { token: admin } = (await post(`${server.url}/api/admin/login`, {
      username: 'admin',
      password: PASSWORD,
    })) as { token: string };

    receiver.reset();
    const t0 = performance.now();
    await post(
      `${server.url}/api/admin/announcements`,
      { text: 'The keynote moved to Hall B' },
      admin,
    );
    const acked = performance.now() - t0;
    await waitFor(() => receiver.received() >= DEVICES, 30_000);
    const appMs = receiver.last() - t0;
    const appReceived = receiver.received();

    const { publicKey, privateKey } = webpush.generateVAPIDKeys();
    const agent = new https.Agent({
      keepAlive: true,
      maxSockets: CONCURRENCY,
      ca: await fs.readFile(receiver.cert),
    });
    const payload = JSON.stringify({ title: 'Confab', body: 'The keynote moved to Hall B' });
    receiver.reset();
    const r0 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < DEVICES) {
          const endpoint = endpoints[next++] ?? '';
          await webpush.sendNotification({ endpoint, keys }, payload, {
            vapidDetails: { subject: 'mailto:bench@confab.invalid', publicKey, privateKey },
            TTL: 3600,
            urgency: 'high',
            agent,
          });
        }
      }),
    );
    const refMs = receiver.last() - r0;
    agent.destroy();
    return [
      {
        name: `an announcement pushed to ${fmt(DEVICES)} devices: ms to the last delivery (${fmt(appReceived)} delivered)`,
        value: fmt(appMs, 0),
        reference: `${fmt(refMs, 0)} web-push alone, ${CONCURRENCY} at a time`,
        ratio: fmt(appMs / refMs, 2),
        target: '< 10,000 ms, every device',
        met: appMs < 10_000 && appReceived >= DEVICES,
      },
      {
        name: 'the admin’s 201, ms',
        value: fmt(acked, 1),
        reference: '',
        ratio: '',
        target: 'does not wait for the pushes',
        met: null,
      },
    ];
  } finally {
    await server.stop();
    await receiver.close();
    await fs.rm(dir, { recursive: true, force: true });
  }
}
