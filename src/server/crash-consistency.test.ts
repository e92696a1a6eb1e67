import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import sharp from 'sharp';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type Memory,
  memoryListSchema,
  memoryPostResponseSchema,
} from '../shared/schemas/memory.ts';
import { questionListSchema, questionSchema } from '../shared/schemas/question.ts';
import { speakerCreatedResponseSchema } from '../shared/schemas/speaker.ts';
import { freePort } from '../../tests/support/free-port.ts';
import { noisyImage } from '../../tests/support/media.ts';
import { startServer } from '../../tests/support/server-process.ts';

const UPLOADS = 50;
const QUESTIONS = 200;

/** A photo that does not compress, so processing and uploading it take a moment. */
const noisyPng = () => noisyImage('png', { width: 400, height: 300 });

describe('crash consistency', () => {
  let dataDir: string | undefined;
  let child: ChildProcess | undefined;
  afterAll(async () => {
    if (child?.exitCode === null) {
      const exited = new Promise((resolve) => child?.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  // The kill must land while writes are in flight; on a machine busy with the rest of the suite
  // that moment can be missed (every write settles first), so the scenario is tried up to 3 times.
  it(
    'after SIGKILL with uploads and questions in flight, every answered write is there, with its files, and nothing else',
    { retry: 2, timeout: 120_000 },
    async () => {
      dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'confab-crash-'));
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      child = await startServer(dataDir, port);

      const speakerForm = new FormData();
      speakerForm.append('name', 'Crash Speaker');
      speakerForm.append('stack', 'Kill -9');
      speakerForm.append('bio', 'Survives.');
      speakerForm.append('picture', new Blob([new Uint8Array(await noisyPng())]), 'p.png');
      const created = await fetch(`${url}/api/speakersadd`, { method: 'POST', body: speakerForm });
      const { speaker } = speakerCreatedResponseSchema.parse(await created.json());

      const images = await Promise.all(Array.from({ length: UPLOADS }, () => noisyPng()));
      const answeredMemories: Memory[] = [];
      const answeredQuestions: string[] = [];
      let settled = 0;
      const uploads = images.map(async (image, index) => {
        const form = new FormData();
        form.append('caption', `crash ${index}`);
        form.append('username', `user-${index % 7}`);
        form.append('files', new Blob([new Uint8Array(image)]), 'photo.png');
        try {
          const response = await fetch(`${url}/api/memories`, { method: 'POST', body: form });
          const body: unknown = await response.json();
          if (response.status === 201) {
            answeredMemories.push(...memoryPostResponseSchema.parse(body).memories);
          }
        } catch {
          // cut off by the kill: not answered, so nothing is promised
        } finally {
          settled += 1;
        }
      });
      // Questions keep coming in two lanes while the uploads are processed.
      const ask = async (index: number) => {
        try {
          const response = await fetch(`${url}/questions`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              speakerId: speaker._id,
              speakerName: speaker.name,
              question: `Question ${index}?`,
              askerUsername: `asker-${index % 11}`,
            }),
          });
          const body: unknown = await response.json();
          if (response.status === 201) answeredQuestions.push(questionSchema.parse(body)._id);
        } catch {
          // cut off by the kill
        } finally {
          settled += 1;
        }
      };
      const questions = Array.from({ length: 2 }, async (_, lane) => {
        for (let index = lane; index < QUESTIONS; index += 2) await ask(index);
      });

      // Kill it in the middle: some writes answered, others still being processed.
      const deadline = Date.now() + 60_000;
      while (
        answeredMemories.length < 5 &&
        settled < UPLOADS + QUESTIONS &&
        Date.now() < deadline
      ) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const exited = new Promise((resolve) => child?.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      const inFlight = UPLOADS + QUESTIONS - settled;
      await Promise.all([...uploads, ...questions]);
      expect(answeredMemories.length).toBeGreaterThan(0);
      // The kill came while writes were still being processed.
      expect(inFlight).toBeGreaterThan(0);
      const filesAtKill = (await fs.readdir(path.join(dataDir, 'media', 'memories'))).length;
      console.log(
        `[crash] killed with ${inFlight} writes in flight; answered: ${answeredMemories.length} memories, ${answeredQuestions.length} questions; ${filesAtKill} files on disk`,
      );
      // And a file whose row never came, as a kill between the two leaves it.
      const orphan = `${uuidv7()}.png`;
      await fs.writeFile(path.join(dataDir, 'media', 'memories', orphan), await noisyPng());

      // The database file is sound.
      const sqlite = new DatabaseSync(path.join(dataDir, 'confab.sqlite'));
      expect(sqlite.prepare('pragma integrity_check').get()).toEqual({ integrity_check: 'ok' });
      sqlite.close();

      child = await startServer(dataDir, port);

      // Every answered memory is there, with its file.
      const listed = memoryListSchema.parse(
        await (await fetch(`${url}/api/memory?limit=200`)).json(),
      );
      const listedIds = new Set(listed.map((memory) => memory._id));
      for (const memory of answeredMemories) expect(listedIds.has(memory._id)).toBe(true);
      for (const memory of listed) {
        for (const file of [memory.media, memory.thumbnail]) {
          if (!file) continue;
          const response = await fetch(`${url}${file}`);
          expect(response.status, file).toBe(200);
          const { width } = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
          expect(width).toBeGreaterThan(0);
        }
      }

      // Every answered question is there.
      const asked = questionListSchema.parse(
        await (
          await fetch(`${url}/api/questions/realtime?speakerId=${speaker._id}&limit=200`)
        ).json(),
      );
      const askedIds = new Set(asked.map((question) => question._id));
      for (const id of answeredQuestions) expect(askedIds.has(id)).toBe(true);

      // No file without its row: the interrupted uploads' files were swept at start.
      const onDisk = (await fs.readdir(path.join(dataDir, 'media', 'memories'))).sort();
      const named = listed
        .flatMap((memory) => [memory.media, memory.thumbnail ?? ''])
        .filter(Boolean)
        .map((file) => path.basename(file))
        .sort();
      expect(onDisk).toEqual(named);
      expect(await fs.readdir(path.join(dataDir, 'media', '.tmp'))).toEqual([]);
      expect(await fs.readdir(path.join(dataDir, 'uploads'))).toEqual([]);
    },
  );
});
