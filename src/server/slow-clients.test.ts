import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { defaultMaxConnections } from './http/transport/connection-limits.ts';
import { freePort } from '../../tests/support/free-port.ts';
import { startServer, stopServer } from '../../tests/support/server-process.ts';
import { useTestApp } from '../../tests/support/test-app.ts';

const BOUNDARY = 'slowclientboundary';

/** The first 5,000 bytes of a real photo: its type is known, and the rest never comes. */
const PHOTO_START = sharp({
  create: {
    width: 400,
    height: 300,
    channels: 3,
    background: '#000',
    noise: { type: 'gaussian', mean: 128, sigma: 60 },
  },
})
  .png()
  .toBuffer()
  .then((png) => png.subarray(0, 5000));

/** A memory post's request line, headers and the start of its file part, then nothing more. */
const uploadStart = async (host: string) =>
  Buffer.concat([
    Buffer.from(
      `POST /api/memories HTTP/1.1\r\nHost: ${host}\r\n` +
        `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: 10000000\r\n\r\n` +
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="caption"\r\n\r\nslow\r\n` +
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="username"\r\n\r\nslow\r\n` +
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="a.png"\r\n` +
        'Content-Type: image/png\r\n\r\n',
    ),
    await PHOTO_START,
  ]);

/** Opens a connection and sends `text`; answers the socket, what it received, and when it closed. */
function openConnection(port: number, text: string | Buffer) {
  const socket = net.connect(port, '127.0.0.1');
  const state = { received: '', closedAt: undefined as number | undefined };
  socket.on('data', (chunk: Buffer) => (state.received += chunk.toString()));
  socket.on('error', () => undefined);
  socket.on('close', () => (state.closedAt = Date.now()));
  socket.write(text);
  return { socket, state };
}

const waitUntil = async (done: () => boolean, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs;
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return done();
};

describe('slow clients', () => {
  it('the defaults end a stalled body within 60 s and bound one upload', () => {
    const config = loadConfig({});
    expect(config.idleTimeoutMs).toBeLessThanOrEqual(60_000);
    expect(config.headersTimeoutMs).toBeLessThanOrEqual(60_000);
    expect(config.requestTimeoutMs).toBe(10 * 60_000);
    // Below the open-file limit, with room for a staged file per upload.
    expect(defaultMaxConnections(1024)).toBe(448);
    expect(defaultMaxConnections(4096)).toBe(1984);
    // The 10,000 attendees' sockets of the conference profile fit under a limit of 20,000.
    expect(defaultMaxConnections(20_000)).toBe(17_952);
  });

  describe('in one app', () => {
    let port: number;
    const t = useTestApp({
      env: { IDLE_TIMEOUT: '2s', HEADERS_TIMEOUT: '2s', REQUEST_TIMEOUT: '10s' },
    });
    beforeAll(async () => {
      port = Number(new URL(t.url).port);
    });

    it('closes an upload whose body stops arriving, and keeps none of it', async () => {
      const started = Date.now();
      const { state } = openConnection(port, await uploadStart(`127.0.0.1:${port}`));
      expect(await waitUntil(() => state.closedAt !== undefined, 6_000)).toBe(true);
      expect((state.closedAt ?? 0) - started).toBeLessThan(5_000);
      // The staged part goes once the server has seen the close.
      await expect
        .poll(() => fs.readdir(path.join(t.dataDir, 'uploads')), { timeout: 5_000 })
        .toEqual([]);
      expect(await t.storedMediaKeys('memories/')).toEqual([]);
      expect((await fetch(`${t.url}/api/health`)).status).toBe(200);
    });

    it('answers headers that trickle in 408 and closes', async () => {
      const { socket, state } = openConnection(port, 'GET /api/health HTTP/1.1\r\n');
      const trickle = setInterval(() => socket.write('X-Slow: 1\r\n'), 300);
      try {
        expect(await waitUntil(() => state.closedAt !== undefined, 10_000)).toBe(true);
        expect(state.received).toMatch(/^HTTP\/1\.1 408/);
        expect(state.received).toContain('"error"');
      } finally {
        clearInterval(trickle);
      }
    });

    it('leaves a quiet WebSocket open past the idle timeout', async () => {
      const socket = io(t.url, { transports: ['websocket'], reconnection: false });
      let disconnected = false;
      socket.on('disconnect', () => (disconnected = true));
      try {
        await new Promise<void>((resolve, reject) => {
          socket.once('connect', resolve);
          socket.once('connect_error', reject);
        });
        // Nothing is sent for longer than the timeout and a sweep (the pings come every 25 s).
        await new Promise((r) => setTimeout(r, 3_500));
        expect(disconnected).toBe(false);
        expect(socket.connected).toBe(true);
      } finally {
        socket.close();
      }
    });

    it('ends an upload that trickles for longer than the request timeout', async () => {
      const started = Date.now();
      const { socket, state } = openConnection(port, await uploadStart(`127.0.0.1:${port}`));
      const trickle = setInterval(() => socket.write('x'), 500);
      try {
        expect(await waitUntil(() => state.closedAt !== undefined, 25_000)).toBe(true);
        expect((state.closedAt ?? 0) - started).toBeGreaterThanOrEqual(9_000);
      } finally {
        clearInterval(trickle);
      }
      await expect
        .poll(() => fs.readdir(path.join(t.dataDir, 'uploads')), { timeout: 5_000 })
        .toEqual([]);
    }, 30_000);
  });

  describe('1,100 hostile connections at ulimit -n 1024', () => {
    let dataDir: string;
    let child: ChildProcess | undefined;
    let port: number;
    beforeAll(async () => {
      dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'confab-slow-'));
      port = await freePort();
      child = await startServer(dataDir, port, {}, { openFiles: 1024 });
    }, 60_000);
    afterAll(async () => {
      if (child) await stopServer(child);
      await fs.rm(dataDir, { recursive: true, force: true });
    });

    it('does not crash: beyond the cap a clear 503, and service again once they go', async () => {
      const start = await uploadStart(`127.0.0.1:${port}`);
      const hostile = Array.from({ length: 1_100 }, () => openConnection(port, start));
      // They keep trickling (never idle), as a slow-loris client does.
      const trickle = setInterval(() => {
        for (const { socket } of hostile) if (!socket.destroyed) socket.write('x');
      }, 1_000);
      const isRefused = ({ state }: (typeof hostile)[number]) =>
        state.received.startsWith('HTTP/1.1 503');
      try {
        // The server refuses each one beyond the cap as it takes it in: on a busy machine, a
        // while after they were opened.
        await expect
          .poll(() => hostile.filter(isRefused).length, { timeout: 30_000, interval: 200 })
          .toBeGreaterThanOrEqual(1_100 - defaultMaxConnections(1024));
        expect(child?.exitCode).toBeNull();
        const outcomes = new Map<string, number>();
        for (const { state } of hostile) {
          const key = `${state.received.slice(0, 12) || 'nothing'} ${state.closedAt ? 'closed' : 'open'}`;
          outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
        }
        console.log('[slow clients]', Object.fromEntries(outcomes));
        const refused = hostile.filter(isRefused);
        expect(refused.length).toBeGreaterThanOrEqual(1_100 - defaultMaxConnections(1024));
        const [first] = refused;
        expect(first?.state.received).toMatch(/retry-after: \d+/i);
        expect(first?.state.received).toContain('"code":"SERVICE_UNAVAILABLE"');
      } finally {
        clearInterval(trickle);
        for (const { socket } of hostile) socket.destroy();
      }
      // Service again as soon as the server has seen them go.
      await expect
        .poll(
          () =>
            fetch(`http://127.0.0.1:${port}/api/health`).then(
              (response) => response.status,
              () => 0,
            ),
          { timeout: 10_000, interval: 200 },
        )
        .toBe(200);
      expect(child?.exitCode).toBeNull();
    }, 60_000);
  });
});
