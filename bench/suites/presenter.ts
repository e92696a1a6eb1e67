import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM_FLAGS, chromiumPath } from '../../tests/e2e/chromium.ts';
import {
  addSpeakerWithSecret,
  askQuestion,
  joinAttendee,
  speakerToken,
} from '../../tests/support/speakers.ts';
import { freePort } from '../../tests/support/free-port.ts';
import { startAppServer } from '../lib/processes.ts';
import { type Row, fmt } from '../lib/report.ts';
import { liveAgainRow, pageMemory } from '../lib/long-running-page.ts';
import { roomProjectorRun } from './room-projector.ts';

/** Minutes of questions and votes the presenter view lives through (BENCH_PRESENTER_MINUTES). */
const MINUTES = Number(process.env.BENCH_PRESENTER_MINUTES ?? 3);
const QUESTIONS_PER_SECOND = 2;
const VOTES_PER_SECOND = 10;

const ADMIN_PASSWORD = 'bench admin password';

/**
 * The presenter view on the projector for a while: its JavaScript heap after a garbage
 * collection before and after minutes of new questions and votes arriving live, with the server
 * restarted half-way (the view must come back live on its own). Reference: the same page's
 * heap right after it loaded. Then a room's projector through a programme (`roomProjectorRun`),
 * beside it.
 */
export async function presenterView(): Promise<Row[]> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'confab-bench-'));
  // One address and data directory across the restart, as a restarted server has.
  const env = {
    DATA_DIR: dataDir,
    PORT: String(await freePort()),
    QUESTIONS_PER_MINUTE: '600',
    // The room projector's programme is seeded by the admin, many sessions in a row.
    ADMIN_PASSWORD: ADMIN_PASSWORD,
    WRITE_RATE_LIMIT: '100000',
    SESSION_SECRET: 'bench-session-secret-that-is-long-enough-0000',
  };
  let server = await startAppServer(env);
  const browser = await chromium.launch({
    executablePath: await chromiumPath(),
    args: CHROMIUM_FLAGS,
  });
  try {
    const { speaker, secret } = await addSpeakerWithSecret(server.url, 'Grace Presenter');
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    await page.goto(`${server.url}/speakers/${speaker.username}/present`);
    await page.getByRole('heading', { name: `Q&A with ${speaker.name}` }).waitFor();
    const { heapMb: heap } = await pageMemory(page);
    const tokens = await Promise.all(
      Array.from({ length: 20 }, (_, i) => joinAttendee(server.url, `voter-${i}`)),
    );
    // Warm up: the first questions and votes load what the view draws them with.
    const ids: string[] = [];
    let asked = 0;
    const ask = async () => {
      asked += 1;
      const question = await askQuestion(server.url, {
        speakerId: speaker._id,
        speakerName: speaker.name,
        question: `Question ${asked}: what would you do differently on a projector?`,
        askerUsername: `asker-${asked}`,
      });
      ids.push(question._id);
    };
    let votes = 0;
    const vote = async () => {
      const id = ids[Math.floor(Math.random() * ids.length)];
      const token = tokens[votes % tokens.length];
      votes += 1;
      if (!id || !token) return;
      await fetch(`${server.url}/api/questions/${id}/vote`, {
        method: Math.random() < 0.8 ? 'PUT' : 'DELETE',
        headers: { authorization: `Bearer ${token}` },
      });
    };
    for (let i = 0; i < 10; i += 1) await ask();
    await page.waitForTimeout(2_000);
    const start = await heap();

    const end = Date.now() + MINUTES * 60_000;
    let restarted = false;
    let backLive = NaN;
    while (Date.now() < end) {
      if (!restarted && Date.now() > end - (MINUTES * 60_000) / 2) {
        restarted = true;
        await server.stop();
        server = await startAppServer(env);
        const back = Date.now();
        // The speaker pins a new question: the view shows it big once it is live again.
        await ask();
        const token = await speakerToken(server.url, speaker.username, secret);
        await fetch(`${server.url}/api/questions/${ids.at(-1) ?? ''}`, {
          method: 'PATCH',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ pinned: true }),
        });
        await page
          .getByRole('article', { name: 'Pinned question' })
          .getByText(`Question ${asked}:`)
          .waitFor({ timeout: 60_000 });
        backLive = (Date.now() - back) / 1000;
      }
      const tick = Date.now();
      await Promise.all([
        ...Array.from({ length: QUESTIONS_PER_SECOND }, ask),
        ...Array.from({ length: VOTES_PER_SECOND }, vote),
      ]);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 1_000 - (Date.now() - tick))));
    }
    await page.waitForTimeout(3_000);
    const after = await heap();
    const growth = after - start;
    // A room's projector following a programme, beside this figure, in the same run.
    const room = await roomProjectorRun(
      browser,
      {
        current: () => server,
        restart: async () => {
          await server.stop();
          server = await startAppServer(env);
          return server;
        },
      },
      ADMIN_PASSWORD,
      { start, after },
    );
    return [
      {
        name: `presenter view: JS heap after GC, before and after ${MINUTES} min of ${QUESTIONS_PER_SECOND} questions and ${VOTES_PER_SECOND} votes a second (${asked} questions, ${votes} votes)`,
        value: `${fmt(start, 1)} → ${fmt(after, 1)} MB (growth ${fmt(growth, 1)} MB)`,
        reference: `${fmt(start, 1)} MB after loading`,
        ratio: fmt(after / start, 2),
        target: 'flat (< 5 MB growth)',
        met: growth < 5,
      },
      liveAgainRow('presenter view', 'a server restart (a new question shown)', backLive),
      ...room,
    ];
  } finally {
    await browser.close();
    await server.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}
