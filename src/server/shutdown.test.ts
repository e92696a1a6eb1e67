import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { io } from 'socket.io-client';
import { Client } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../tests/support/free-port.ts';
import { halfSentMemoryPost } from '../../tests/support/raw-http.ts';
import { startServer, stopServer } from '../../tests/support/server-process.ts';

const exitOf = (child: ChildProcess) =>
  new Promise<{ code: number | null; at: number }>((resolve) =>
    child.once('exit', (code) => resolve({ code, at: Date.now() })),
  );

describe('graceful shutdown', () => {
  let dataDir: string | undefined;
  let child: ChildProcess | undefined;
  afterEach(async () => {
    if (child) await stopServer(child);
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  /** main.ts on a fresh data directory and a free port, stopped after the test. */
  const serve = async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'confab-shutdown-'));
    const port = await freePort();
    child = await startServer(dataDir, port);
    return { server: child, url: `http://127.0.0.1:${port}` };
  };

  it('with sockets and idle keep-alive connections open, exits 0 at once', async () => {
    const { server, url } = await serve();
    const socket = io(url, { transports: ['websocket'], forceNew: true, reconnection: false });
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const keepAlive = new Client(url);
    await (await keepAlive.request({ path: '/api/memory', method: 'GET' })).body.text();
    try {
      const exited = exitOf(server);
      const signalled = Date.now();
      server.kill('SIGTERM');
      const { code, at } = await exited;
      expect(code).toBe(0);
      expect(at - signalled).toBeLessThan(3_000);
    } finally {
      socket.close();
      await keepAlive.close();
    }
  });

  it('finishes an upload in flight, then exits 0 as soon as it is done', async () => {
    const { server, url } = await serve();
    const image = await sharp({
      create: { width: 300, height: 200, channels: 3, background: '#e8590c' },
    })
      .png()
      .toBuffer();
    const upload = halfSentMemoryPost(url, image, { caption: 'in flight', username: 'ada' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const exited = exitOf(server);
    server.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(server.exitCode).toBeNull();
    const { status } = await upload.finish();
    const answered = Date.now();
    expect(status).toBe(201);
    const { code, at } = await exited;
    expect(code).toBe(0);
    expect(at - answered).toBeLessThan(3_000);
  });
});
