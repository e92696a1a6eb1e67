import { spawn } from 'node:child_process';
import http from 'node:http';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../tests/support/free-port.ts';

/** Runs src/server/main.ts as a real process, the way `npm start` runs its build. */
function runMain(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      MAX_EVENT_LOOP_DELAY_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return { child, exited, output: () => output };
}

async function waitFor(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const BIG_FILE_BYTES = 32 * 1024 * 1024;

describe('main', () => {
  let dataDir: string | undefined;
  let main: ReturnType<typeof runMain> | undefined;
  afterEach(async () => {
    main?.child.kill('SIGTERM');
    await main?.exited;
    main = undefined;
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
    dataDir = undefined;
  });

  /** A fresh data directory, removed after the test. */
  const freshDataDir = async () =>
    (dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'confab-main-')));

  /** main.ts serving `dir` on a free port; stopped after the test if it still runs. */
  const serve = async (dir: string, env: Record<string, string> = {}) => {
    const port = await freePort();
    main = runMain({ PORT: String(port), DATA_DIR: dir, ...env });
    return { run: main, port };
  };

  it('refuses an invalid configuration with a clear list and exit code 1', async () => {
    const run = runMain({ PORT: 'seventy', MAX_UPLOAD_MB: '0', DATABASE_URL: 'mysql://db' });
    expect(await run.exited).toBe(1);
    expect(run.output()).toContain('Invalid configuration');
    expect(run.output()).toContain('PORT');
    expect(run.output()).toContain('MAX_UPLOAD_MB');
    expect(run.output()).toContain('DATABASE_URL');
  });

  it('with no ADMIN_PASSWORD, prints one plain line: the console URL, username and password', async () => {
    const { run, port } = await serve(await freshDataDir(), { ADMIN_USERNAME: 'organiser' });
    await waitFor(() => run.output().includes('Admin console:'), 'the first-run line');
    const line = run
      .output()
      .split('\n')
      .find((text) => text.startsWith('Admin console:'));
    const match = new RegExp(
      `^Admin console: http://127\\.0\\.0\\.1:${port}/borderlessadmin  username: organiser  password: (\\S{24})$`,
    ).exec(line ?? '');
    expect(match, line).not.toBeNull();
    expect(run.output()).toContain('set ADMIN_PASSWORD');
    // The password printed is the one that logs in.
    const login = await fetch(`http://127.0.0.1:${port}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'organiser', password: match?.[1] }),
    });
    expect(login.status).toBe(200);
  });

  it('with ADMIN_PASSWORD set, prints no password', async () => {
    const { run } = await serve(await freshDataDir(), { ADMIN_PASSWORD: 'a chosen one' });
    await waitFor(() => run.output().includes('Confab is ready'), 'the server');
    expect(run.output()).not.toContain('Admin console:');
    expect(run.output()).not.toContain('a chosen one');
  });

  it('serves, then on SIGTERM finishes in-flight work, closes the database and exits 0', async () => {
    const dir = await freshDataDir();
    await fs.mkdir(path.join(dir, 'media', 'memories'), { recursive: true });
    await fs.writeFile(
      path.join(dir, 'media', 'memories', 'big.mp4'),
      Buffer.alloc(BIG_FILE_BYTES, 7),
    );
    const { run, port } = await serve(dir);
    await waitFor(() => run.output().includes('Confab is ready'), 'the server to start');
    // On the Node.js the project brings, not the machine's own (npm scripts run that one).
    const node = /Confab is ready on Node\.js v(\d+)\./.exec(run.output());
    expect(Number(node?.[1])).toBeGreaterThanOrEqual(24);

    const response = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(response.status).toBe(200);

    // A download in flight when the signal arrives is still served to its last byte.
    const body = await new Promise<number>((resolve, reject) => {
      http
        .get(`http://127.0.0.1:${port}/media/memories/big.mp4`, (res) => {
          let received = 0;
          let signalled = false;
          res.on('data', (chunk: Buffer) => {
            received += chunk.length;
            if (!signalled) {
              signalled = true;
              run.child.kill('SIGTERM');
              // Hold the download back so the server is still sending while it shuts down.
              res.pause();
              setTimeout(() => res.resume(), 500);
            }
          });
          res.on('end', () => resolve(received));
          res.on('error', reject);
        })
        .on('error', reject);
    });
    expect(body).toBe(BIG_FILE_BYTES);
    expect(await run.exited).toBe(0);
    expect(run.output()).toContain('shutting down');
    // SQLite was closed cleanly: its write-ahead log was checkpointed and removed.
    const files = await fs.readdir(dir);
    expect(files).toContain('confab.sqlite');
    expect(files).not.toContain('confab.sqlite-wal');
  });
});
