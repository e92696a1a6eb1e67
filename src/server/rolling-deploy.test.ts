import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { type Memory, memoryPostResponseSchema } from '../shared/schemas/memory.ts';
import { freePort } from '../../tests/support/free-port.ts';
import { noisyImage } from '../../tests/support/media.ts';
import { halfSentMemoryPost } from '../../tests/support/raw-http.ts';
import { startServer, stopServer } from '../../tests/support/server-process.ts';

const ACKNOWLEDGED = 30;
const SLOW = 10;

/** A photo that does not compress, so processing and uploading it take a moment. */
const noisyPng = () => noisyImage('png', { width: 300, height: 200 });

/**
 * A rolling deploy on one data directory: the new process starts while the old one still has
 * uploads in flight, and both sweep for orphans (the new one every second here).
 */
describe('two processes on one data directory', () => {
  let dataDir: string | undefined;
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const child of children) await stopServer(child);
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  it(
    'the new process sweeps nothing of the old one’s uploads, acknowledged or in flight, and still sweeps real orphans',
    { timeout: 120_000 },
    async () => {
      dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'confab-rolling-'));
      const [portA, portB] = [await freePort(), await freePort()];
      const oldUrl = `http://127.0.0.1:${portA}`;
      const newUrl = `http://127.0.0.1:${portB}`;
      const sweepEverySecond = { ORPHAN_SWEEP_INTERVAL: '1s' };
      const old = await startServer(dataDir, portA, sweepEverySecond);
      children.push(old);

      const acknowledged: Memory[] = [];
      for (let i = 0; i < ACKNOWLEDGED; i += 1) {
        const form = new FormData();
        form.append('caption', `acknowledged ${i}`);
        form.append('username', 'ada');
        form.append('files', new Blob([new Uint8Array(await noisyPng())]), 'p.png');
        const response = await fetch(`${oldUrl}/api/memories`, { method: 'POST', body: form });
        expect(response.status).toBe(201);
        acknowledged.push(...memoryPostResponseSchema.parse(await response.json()).memories);
      }
      const slow = await Promise.all(
        Array.from({ length: SLOW }, async (_, i) =>
          halfSentMemoryPost(oldUrl, await noisyPng(), { caption: `slow ${i}`, username: 'slow' }),
        ),
      );
      // The halves are being staged by the old process while the new one starts and sweeps.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const fresh = await startServer(dataDir, portB, sweepEverySecond);
      children.push(fresh);
      await new Promise((resolve) => setTimeout(resolve, 2_500));

      const answers = await Promise.all(slow.map((upload) => upload.finish()));
      expect(answers.map((answer) => answer.status)).toEqual(Array(SLOW).fill(201));
      const finished = answers.flatMap(
        (answer) => memoryPostResponseSchema.parse(JSON.parse(answer.body)).memories,
      );

      // Every acknowledged photo is served whole by both processes.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      for (const memory of [...acknowledged, ...finished]) {
        for (const file of [memory.media, memory.thumbnail ?? '']) {
          for (const base of [oldUrl, newUrl]) {
            expect((await fetch(`${base}${file}`)).status, `${base}${file}`).toBe(200);
          }
        }
      }

      // A real orphan (no row, older than any upload can be) goes at the next periodic sweep;
      // a recent file without a row stays: it may be an upload in flight.
      const memoriesDir = path.join(dataDir, 'media', 'memories');
      const orphan = `${uuidv7({ msecs: Date.now() - 2 * 3_600_000 })}.png`;
      const recent = `${uuidv7()}.png`;
      await fs.writeFile(path.join(memoriesDir, orphan), await noisyPng());
      await fs.writeFile(path.join(memoriesDir, recent), await noisyPng());
      await vi.waitFor(async () => expect(await fs.readdir(memoriesDir)).not.toContain(orphan), {
        timeout: 10_000,
        interval: 250,
      });
      expect(await fs.readdir(memoriesDir)).toContain(recent);
    },
  );
});
