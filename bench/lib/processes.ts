import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../tests/support/free-port.ts';

export interface BenchServer {
  url: string;
  pid: number;
  dataDir: string;
  /** Resident memory of the server process in bytes (from /proc). */
  rss(): Promise<number>;
  /** CPU seconds (user + system) the server process has used so far. */
  cpuSeconds(): Promise<number>;
  /** CPU seconds its finished child processes (ffmpeg) have used so far. */
  childrenCpuSeconds(): Promise<number>;
  /** Whether the process still runs (it has not exited or crashed). */
  alive(): boolean;
  stop(): Promise<void>;
}

async function waitForHttp(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`process exited with ${child.exitCode}`);
    try {
      await fetch(url);
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`${url} did not answer within 30 s`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

const CLOCK_TICKS = 100;

async function procStats(pid: number): Promise<{ rss: number; cpu: number; childrenCpu: number }> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  const rssPages = Number(fields[21]);
  // The children it has waited for (ffmpeg), apart.
  const childrenCpu = (Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS;
  return { rss: rssPages * 4096, cpu: (utime + stime) / CLOCK_TICKS, childrenCpu };
}

function wrap(child: ChildProcess, url: string, dataDir: string, cleanup: boolean): BenchServer {
  const pid = child.pid ?? 0;
  return {
    url,
    pid,
    dataDir,
    rss: async () => (await procStats(pid)).rss,
    cpuSeconds: async () => (await procStats(pid)).cpu,
    childrenCpuSeconds: async () => (await procStats(pid)).childrenCpu,
    alive: () => child.exitCode === null && child.signalCode === null,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      if (cleanup) await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The production server (dist/server/main.js) in its own process, with a fresh data dir.
 * `fileLimit`: the process's open-file limit (lowered through the shell's `ulimit -n`, which
 * `exec`s the server in its own place), as a host sized for fewer connections would set it.
 */
export async function startAppServer(
  env: Record<string, string> = {},
  options: { fileLimit?: number } = {},
): Promise<BenchServer> {
  const dataDir = env.DATA_DIR ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'confab-bench-')));
  // A given PORT (a server restarted where it was) or a free one.
  const port = env.PORT ? Number(env.PORT) : await freePort();
  // BENCH_SERVER_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles the server;
  // BENCH_SERVER_STDOUT=file keeps what it prints (e.g. with "--trace-gc").
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const stdout = process.env.BENCH_SERVER_STDOUT
    ? openSync(process.env.BENCH_SERVER_STDOUT, 'a')
    : 'ignore';
  // As `npm start` runs it (decision 091).
  const args = ['--max-semi-space-size=64', ...nodeArgs, 'dist/server/main.js'];
  const child = spawn(
    options.fileLimit ? '/bin/sh' : process.execPath,
    options.fileLimit
      ? ['-c', `ulimit -n ${options.fileLimit} && exec "$0" "$@"`, process.execPath, ...args]
      : args,
    {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        // As `npm start` runs it: fewer malloc arenas, and large blocks straight from the OS,
        // keep image work from bloating memory (decisions 078 and 094).
        MALLOC_ARENA_MAX: '2',
        MALLOC_MMAP_THRESHOLD_: '131072',
        WRITE_RATE_LIMIT: '1000000',
        WRITE_RATE_LIMIT_PER_ADDRESS: '1000000',
        QUESTIONS_PER_MINUTE: '600',
        // The load generators join from one address; what joining costs has its own suite.
        JOIN_PROOF_FREE_PER_MINUTE: '100000',
        ...env,
      },
      stdio: ['ignore', stdout, 'inherit'],
    },
  );
  if (typeof stdout === 'number') closeSync(stdout);
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/api/health`, child);
  return wrap(child, url, dataDir, env.DATA_DIR === undefined);
}

async function startReference(script: string, env: Record<string, string>): Promise<BenchServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(import.meta.dirname, '..', script)], {
    env: { ...process.env, PORT: String(port), ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/`, child);
  return wrap(child, url, os.tmpdir(), false);
}

/** A bare node:http server answering fixed responses (bench/reference-server.mjs). */
export const startReferenceServer = (
  responses: Record<string, { status: number; headers: Record<string, string>; body: string }>,
) => startReference('reference-server.mjs', { RESPONSES: JSON.stringify(responses) });

/**
 * The app's own answers, byte for byte, for the reference to give: `[path the reference answers,
 * address asked of the app, headers]` each.
 */
export async function answersOf(
  url: string,
  entries: readonly (readonly [string, string, Record<string, string>?])[],
): Promise<Record<string, { etag: string; body: string }>> {
  const answers: Record<string, { etag: string; body: string }> = {};
  for (const [path, address, headers] of entries) {
    const response = await fetch(`${url}${address}`, { headers: headers ?? {} });
    answers[path] = { etag: response.headers.get('etag') ?? '', body: await response.text() };
  }
  return answers;
}

/**
 * Bare node:http + socket.io with fixed polled lists (304 on a matching tag) and posts that only
 * send the socket events (bench/reference-conference-server.mjs).
 */
export async function startConferenceReference(
  responses: Record<string, { etag: string; body: string }>,
): Promise<BenchServer> {
  // Through a file: the lists (200 questions with their votes) outgrow one environment variable.
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'confab-reference-'));
  const file = path.join(dir, 'responses.json');
  await fs.writeFile(file, JSON.stringify(responses));
  const server = await startReference('reference-conference-server.mjs', { RESPONSES_FILE: file });
  return {
    ...server,
    stop: async () => {
      await server.stop();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
