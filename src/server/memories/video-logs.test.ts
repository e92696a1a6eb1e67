import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { freePort } from '../../../tests/support/free-port.ts';
import { fixture } from '../../../tests/support/media.ts';
import { startServer, stopServer } from '../../../tests/support/server-process.ts';
import { listBoxes } from '../../../tests/support/video-structure.ts';
import { memoryPostResponseSchema, memorySchema } from '../../shared/schemas/memory.ts';

async function post(url: string, name: string, data: Buffer): Promise<Response> {
  const body = new FormData();
  body.append('caption', 'Logs');
  body.append('username', 'ada');
  body.append('files', new Blob([new Uint8Array(data)]), name);
  return fetch(`${url}/api/memories`, { method: 'POST', body });
}

describe('the server process while ffmpeg reads and renders videos', () => {
  let dataDir: string;
  let server: ChildProcess;
  let url: string;
  let output = '';
  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'confab-video-logs-'));
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    // A set admin password: the first-run line for the organiser is the one plain line by design.
    server = await startServer(
      dataDir,
      port,
      { LOG_LEVEL: 'debug', ADMIN_PASSWORD: 'correct horse battery staple' },
      { captureOutput: true },
    );
    server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  });
  afterAll(async () => {
    await stopServer(server, 'SIGTERM');
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('writes nothing but its JSON log lines, ffmpeg’s words inside them at debug', async () => {
    const response = await post(url, 'IMG_0420.MOV', await fixture('portrait-hevc.mov'));
    expect(response.status).toBe(201);
    const [memory] = memoryPostResponseSchema.parse(await response.json()).memories;
    await expect
      .poll(
        async () =>
          memorySchema.parse(await (await fetch(`${url}/api/memory/${memory?._id ?? ''}`)).json())
            .processing,
        { timeout: 30_000 },
      )
      .toBe(false);
    // A video ffmpeg cannot decode: ffmpeg complains on its stderr.
    const clip = await fixture('clip.mp4');
    const mdat = listBoxes(clip).find((box) => box.type === 'mdat');
    const zeroed = Buffer.from(clip);
    if (mdat) zeroed.fill(0, mdat.offset + 8, mdat.offset + mdat.size);
    expect((await post(url, 'zeroed.mp4', zeroed)).status).toBe(400);

    await expect.poll(() => output.includes('"ffmpeg"')).toBe(true);
    // A request's completion is logged once its answer has left.
    await expect.poll(() => output.split('"request completed"').length - 1).toBe(2);
    const lines = output.split('\n').filter((line) => line.trim() !== '');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(() => JSON.parse(line) as unknown, line).not.toThrow();
    }
    const entries = lines.map(
      (line) =>
        JSON.parse(line) as {
          level: number;
          msg: string;
          ffmpeg?: string;
          reqId?: string;
          req?: { method: string; url: string };
          res?: { statusCode: number };
        },
    );
    const ffmpeg = entries.filter((entry) => entry.ffmpeg !== undefined);
    expect(ffmpeg.every((entry) => entry.level === 20)).toBe(true);

    // Writes are logged as they arrive and as they are answered, with their request id; the
    // reads (the polls above) are not.
    const requests = entries.filter(
      (entry) => entry.msg === 'incoming request' || entry.msg === 'request completed',
    );
    const incoming = requests.filter((entry) => entry.msg === 'incoming request');
    expect(incoming.map((entry) => `${entry.req?.method} ${entry.req?.url}`)).toEqual([
      'POST /api/memories',
      'POST /api/memories',
    ]);
    const completed = requests.filter((entry) => entry.msg === 'request completed');
    expect(completed.map((entry) => entry.res?.statusCode)).toEqual([201, 400]);
    expect(completed.map((entry) => entry.reqId)).toEqual(incoming.map((entry) => entry.reqId));
  });
});
