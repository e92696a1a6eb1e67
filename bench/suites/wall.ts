import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import sharp from 'sharp';
import { CHROMIUM_FLAGS, chromiumPath } from '../../tests/e2e/chromium.ts';
import { freePort } from '../../tests/support/free-port.ts';
import { liveAgainRow, pageMemory } from '../lib/long-running-page.ts';
import { startAppServer } from '../lib/processes.ts';
import { type Row, fmt } from '../lib/report.ts';

/**
 * Minutes the wall runs while memories arrive (BENCH_WALL_MINUTES, default 3; 30 for the full
 * run the issue asks for).
 */
const MINUTES = Number(process.env.BENCH_WALL_MINUTES ?? 3);
const MEMORIES_PER_SECOND = 1;

/** Posts one memory as an attendee's phone would: a small photo of its own colour. */
async function postMemory(url: string, n: number): Promise<void> {
  const image = await sharp({
    create: {
      width: 640,
      height: 480,
      channels: 3,
      background: { r: (n * 37) % 256, g: (n * 91) % 256, b: (n * 53) % 256 },
    },
  })
    .jpeg()
    .toBuffer();
  // A 503 (the server busy, or still starting) is tried again, as the app does.
  for (let attempt = 0; ; attempt += 1) {
    const form = new FormData();
    form.append('caption', `Wall bench memory ${n}: the room from where I sit`);
    form.append('username', `wall-${n % 200}`);
    form.append('files', new Blob([new Uint8Array(image)]), 'photo.jpg');
    const response = await fetch(`${url}/api/memories`, {
      method: 'POST',
      body: form,
      headers: { 'x-confab-user': `wall-${n % 200}` },
    });
    if (response.status === 201) return;
    if (response.status !== 503 || attempt >= 10) {
      throw new Error(`post answered ${response.status}: ${await response.text()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

/**
 * The wall on a projector for a while: its JavaScript heap after a garbage collection before and
 * after minutes of one new memory a second, with the network dropped for 15 s a third of the
 * way in and the server restarted two thirds in (the wall must come back live by itself each
 * time). Reference: the same page's heap right after it loaded.
 */
export async function wallMemory(): Promise<Row[]> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'confab-bench-wall-'));
  const env = {
    DATA_DIR: dataDir,
    PORT: String(await freePort()),
    WRITE_RATE_LIMIT: '100000',
    SESSION_SECRET: 'bench-session-secret-that-is-long-enough-0000',
  };
  let server = await startAppServer(env);
  const browser = await chromium.launch({
    executablePath: await chromiumPath(),
    args: CHROMIUM_FLAGS,
  });
  try {
    let posted = 0;
    const post = async () => {
      posted += 1;
      await postMemory(server.url, posted);
      return posted;
    };
    for (let i = 0; i < 10; i += 1) await post();
    const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/wall`);
    await page.getByText('@wall-').first().waitFor();
    const { heapMb: heap, domNodes } = await pageMemory(page);
    // Warm up: the first arrivals load what the wall draws them with.
    for (let i = 0; i < 5; i += 1) {
      await post();
      await page.waitForTimeout(1_000);
    }
    await page.waitForTimeout(3_000);
    const start = await heap();
    const startNodes = await domNodes();

    /** A memory posted now: seconds until the wall shows it. */
    const shownAfter = async () => {
      const n = await post();
      const since = Date.now();
      await page
        .getByText(`Wall bench memory ${n}:`)
        .waitFor({ timeout: 60_000 })
        .catch(() => undefined);
      return (Date.now() - since) / 1000;
    };

    const total = MINUTES * 60_000;
    const began = Date.now();
    let offlineDone = false;
    let restartDone = false;
    let backAfterDrop = NaN;
    let backAfterRestart = NaN;
    const inFlight = new Set<Promise<number>>();
    let failedPosts = 0;
    while (Date.now() - began < total) {
      const elapsed = Date.now() - began;
      if (!offlineDone && elapsed > total / 3) {
        offlineDone = true;
        await Promise.allSettled(inFlight);
        await context.setOffline(true);
        for (let i = 0; i < 15; i += 1) {
          await post();
          await page.waitForTimeout(1_000);
        }
        await context.setOffline(false);
        backAfterDrop = await shownAfter();
      }
      if (!restartDone && elapsed > (2 * total) / 3) {
        restartDone = true;
        await Promise.allSettled(inFlight);
        await server.stop();
        server = await startAppServer(env);
        backAfterRestart = await shownAfter();
      }
      // Posted on the second whatever each post takes (a few at most in flight), as phones do.
      const tick = Date.now();
      for (let i = 0; i < MEMORIES_PER_SECOND && inFlight.size < 8; i += 1) {
        const sending = post()
          .catch(() => {
            failedPosts += 1;
            return 0;
          })
          .finally(() => inFlight.delete(sending));
        inFlight.add(sending);
      }
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 1_000 - (Date.now() - tick))));
    }
    await Promise.allSettled(inFlight);
    await page.waitForTimeout(3_000);
    const after = await heap();
    const afterNodes = await domNodes();
    const growth = after - start;
    return [
      {
        name: `wall: JS heap after GC, before and after ${MINUTES} min of ${MEMORIES_PER_SECOND} new memory a second (${posted} memories, ${failedPosts} posts failed; a 15 s network drop and a server restart on the way)`,
        value: `${fmt(start, 1)} → ${fmt(after, 1)} MB (growth ${fmt(growth, 1)} MB); DOM nodes ${startNodes} → ${afterNodes}`,
        reference: `${fmt(start, 1)} MB after loading`,
        ratio: fmt(after / start, 2),
        target: 'flat (< 5 MB growth)',
        met: growth < 5,
      },
      liveAgainRow('wall', 'a 15 s network drop (a new memory shown)', backAfterDrop),
      liveAgainRow('wall', 'a server restart (a new memory shown)', backAfterRestart),
    ];
  } finally {
    await browser.close();
    await server.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}
