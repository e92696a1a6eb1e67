import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test as base, expect } from '@playwright/test';
import { freePort } from '../support/free-port.ts';
import type { MemorySeed } from '../support/seed-memories.ts';
import { seedDataDir } from './seed.ts';

export interface RunningServer {
  url: string;
  dataDir: string;
  env: Record<string, string>;
}

/**
 * Starts the production server (dist/server/main.js) on a free port with a fresh data dir,
 * holding `memories` from the start when given (stored through the app's repositories).
 */
export async function startServer(
  extraEnv: Record<string, string> = {},
  { memories = [] }: { memories?: MemorySeed[] } = {},
): Promise<RunningServer & { restart(downMs?: number): Promise<void>; stop(): Promise<void> }> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'confab-e2e-'));
  if (memories.length > 0) await seedDataDir(dataDir, memories);
  const port = await freePort();
  const env = {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    EVENT_NAME: 'Confab',
    // The browser tests share a busy machine; load shedding has its own tests.
    MAX_EVENT_LOOP_DELAY_MS: '0',
    // Every test joins from this one address, faster than a person: joins are free here, and
    // the proof of work they otherwise cost has its own spec (join-proof.spec.ts).
    JOIN_PROOF_FREE_PER_MINUTE: '100000',
    ...extraEnv,
  };
  const url = `http://127.0.0.1:${port}`;
  const launch = async (): Promise<ChildProcess> => {
    const child = spawn(process.execPath, ['dist/server/main.js'], {
      env: { ...process.env, ...env, DATABASE_URL: extraEnv.DATABASE_URL ?? '' },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const deadline = Date.now() + 20_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`The server exited with ${child.exitCode}`);
      try {
        const response = await fetch(`${url}/api/health`);
        if (response.ok) return child;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error('The server did not start within 20 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  /** Stops the process gracefully (SIGTERM) and answers its exit code. */
  const terminate = async (): Promise<number | null> => {
    if (child.exitCode !== null) return child.exitCode;
    const exited = new Promise<number | null>((resolve) =>
      child.once('exit', (code) => resolve(code)),
    );
    child.kill('SIGTERM');
    return exited;
  };
  let child = await launch();
  return {
    url,
    dataDir,
    env,
    /** A graceful restart on the same port and data: stops, waits `downMs`, starts again. */
    restart: async (downMs = 0) => {
      await terminate();
      await new Promise((resolve) => setTimeout(resolve, downMs));
      child = await launch();
    },
    stop: async () => {
      await terminate();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

interface WorkerFixtures {
  server: RunningServer;
}

/**
 * `server` is one production server per worker; tests that need an empty app call
 * `startServer()` themselves. `baseURL` points at the worker's server.
 */
export const test = base.extend<object, WorkerFixtures>({
  server: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startServer();
      await use(server);
      await server.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ server }, use) => {
    await use(server.url);
  },
});

export { expect };

/** What the page reports as going wrong: console errors and warnings, and uncaught errors. */
export function consoleProblems(page: import('@playwright/test').Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return problems;
}

/**
 * Waits until React has taken the prerendered join page over (its own property on the input).
 * Before that, its buttons do nothing but "Join Now", which the browser sends itself.
 */
export async function untilHydrated(page: import('@playwright/test').Page): Promise<void> {
  await page.waitForFunction(() => {
    const input = document.querySelector('input[name="username"]');
    return input !== null && Object.keys(input).some((key) => key.startsWith('__reactFiber'));
  });
}

/** Joins as `username` through the landing page, as a person would. */
export async function join(page: import('@playwright/test').Page, username: string): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Username').fill(username);
  await page.getByRole('button', { name: 'Join Now' }).click();
  await expect(page).toHaveURL(/\/home$/);
}
