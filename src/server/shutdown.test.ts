import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { io } from 'socket.io-client';
import { Client } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../tests/support/free-port.ts';
import { startServer, stopServer } from '../../tests/support/server-process.ts';

/** A memory post sent in two halves: `finish` sends the rest and answers the status. */
function halfSentUpload(url: string, image: Buffer) {
  const boundary = 'shutdownboundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="caption"\r\n\r\nin flight\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="username"\r\n\r\nada\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="p.png"\r\n` +
      'Content-Type: image/png\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const half = Math.floor(image.length / 2);
  let request: http.ClientRequest | undefined;
  const status = new Promise<number>((resolve, reject) => {
    request = http.request(
      `${url}/api/memories`,
      { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', reject);
    request.write(Buffer.concat([head, image.subarray(0, half)]));
  });
  return {
    finish: () => {
      request?.end(Buffer.concat([image.subarray(half), tail]));
      return status;
    },
  };
}

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

  it('with sockets and idle keep-alive connections open, exits 0 at once', async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'confab-shutdown-'));
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    child = await startServer(dataDir, port);
    const socket = io(url, { transports: ['websocket'], forceNew: true, reconnection: false });
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const keepAlive = new Client(url);
    await (await keepAlive.request({ path: '/api/memory', method: 'GET' })).body.text();
    try {
      const exited = exitOf(child);
      const signalled = Date.now();
      child.kill('SIGTERM');
      const { code, at } = await exited;
      expect(code).toBe(0);
      expect(at - signalled).toBeLessThan(3_000);
    } finally {
      socket.close();
      await keepAlive.close();
    }
  });

  it('finishes an upload in flight, then exits 0 as soon as it is done', async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'confab-shutdown-'));
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    child = await startServer(dataDir, port);
    const image = await sharp({
      create: { width: 300, height: 200, channels: 3, background: '#e8590c' },
    })
      .png()
      .toBuffer();
    const upload = halfSentUpload(url, image);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const exited = exitOf(child);
    child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(child.exitCode).toBeNull();
    const status = await upload.finish();
    const answered = Date.now();
    expect(status).toBe(201);
    const { code, at } = await exited;
    expect(code).toBe(0);
    expect(at - answered).toBeLessThan(3_000);
  });
});
