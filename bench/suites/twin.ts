import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { AttendeesJob } from '../conference/profile.ts';
import { type ProfileResult, runProfile } from '../conference/run-profile.ts';
import { BENCH_DATABASE_URL, benchSchema } from '../lib/postgres.ts';
import { type BenchServer, startAppServer, startConferenceReference } from '../lib/processes.ts';
import { type Row, type SuiteResult, fmt } from '../lib/report.ts';
import { seedPostgres } from '../lib/seed.ts';
import { conferenceLists, resources } from './conference.ts';
import { seedImage } from './gallery.ts';
import { PASSWORD, openPoll } from './polls.ts';

/** The audience across the two instances; each instance takes half. */
const ATTENDEES = Number(process.env.BENCH_TWIN_ATTENDEES ?? 20_000);
const HALF = Math.round(ATTENDEES / 2);
/** One instance past its limits: this many more than its file budget's share (12,000 for 10,000). */
const OVER = Math.round(HALF * 1.2);
/** Seconds of steady load after arrival, per run. */
const SECONDS = Number(process.env.BENCH_TWIN_SECONDS ?? 60);
/** Sockets opened per second and per instance while the audience arrives. */
const ARRIVALS_PER_SECOND = 500;
const P99_TARGET_MS = 100;

/** The machine's CPU time so far (every core, in clock ticks): busy, and in all. */
async function machineCpu(): Promise<{ busy: number; total: number }> {
  const [line = ''] = (await fs.readFile('/proc/stat', 'utf8')).split('\n');
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] =
    line.trim().split(/\s+/).slice(1).map(Number);
  const busy = user + nice + system + irq + softirq + steal;
  return { busy, total: busy + idle + iowait };
}

/** Several instances' figures as one: the worst percentile of any, errors and sockets summed. */
function together(results: ProfileResult[], coresBusy = 0) {
  const worst = (pick: (r: ProfileResult) => number) => Math.max(0, ...results.map(pick));
  const sum = (pick: (r: ProfileResult) => number) =>
    results.reduce((total, r) => total + pick(r), 0);
  return {
    sockets: sum((r) => r.steady.load.sockets),
    requestsPerSecond: sum((r) => r.steady.load.requestsPerSecond),
    p50: worst((r) => r.steady.load.p50),
    p95: worst((r) => r.steady.load.p95),
    p99: worst((r) => r.steady.load.p99),
    errors: sum((r) => r.total.errors),
    refused: sum((r) => r.total.socketsRefused),
    generatorLagP99: worst((r) => r.steady.load.generatorLagP99),
    coresBusy,
    statuses: results.map((r) => r.total.statuses),
    socketErrors: sum(
      (r) =>
        r.total.errors -
        Object.entries(r.total.statuses)
          .filter(([code]) => !(code.startsWith('2') || code === '304'))
          .reduce((n, [, count]) => n + count, 0),
    ),
  };
}

/** The statuses of failed answers, e.g. " (503: 12)", then requests cut off and sockets lost. */
const failures = (t: ReturnType<typeof together>) => {
  const failed: Record<string, number> = {};
  for (const statuses of t.statuses) {
    for (const [code, count] of Object.entries(statuses)) {
      if (!(code.startsWith('2') || code === '304')) failed[code] = (failed[code] ?? 0) + count;
    }
  }
  const parts = Object.entries(failed).map(([code, n]) => `${code}: ${n}`);
  if (t.socketErrors > 0)
    parts.push(`requests cut off, sockets failed or dropped: ${t.socketErrors}`);
  return parts.length === 0 ? '' : ` (${parts.join(', ')})`;
};

const describe = (t: ReturnType<typeof together>) =>
  `${fmt(t.sockets)} sockets, ${fmt(t.requestsPerSecond)} req/s, p50/p95/p99 ${fmt(t.p50, 1)}/${fmt(t.p95, 1)}/${fmt(t.p99, 1)} ms, ${t.errors} errors${failures(t)}, generator lag p99 ${fmt(t.generatorLagP99, 1)} ms, machine busy ${fmt(t.coresBusy, 2)} of ${os.cpus().length} cores`;

/**
 * Fresh connections to `url` every 2 s until stopped (each closed after its answer): what a new
 * client gets while the instance is full, e.g. "503 with Retry-After: 1 × 14, 200 × 3".
 */
function probeWhileRunning(url: string) {
  const answers = new Map<string, number>();
  const running = { now: true };
  const probing = (async () => {
    while (running.now) {
      let answer: string;
      try {
        const response = await fetch(`${url}/api/health`, { headers: { connection: 'close' } });
        await response.arrayBuffer();
        const retry = response.headers.get('retry-after');
        answer = `${response.status}${retry === null ? '' : ` with Retry-After: ${retry}`}`;
      } catch {
        answer = 'no answer';
      }
      answers.set(answer, (answers.get(answer) ?? 0) + 1);
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  })();
  return async () => {
    running.now = false;
    await probing;
    return [...answers].map(([answer, n]) => `${answer} × ${n}`).join(', ');
  };
}

/**
 * 20,000 attendees (the conference profile, each with a socket, plus answers to an open poll) on
 * two instances sharing PostgreSQL and one media folder, beside the same audience on two bare
 * node:http + socket.io servers; half of it on one instance and on one bare server; and one
 * instance with the files for half the audience given 1.2 times that.
 */
export async function twinInstances(): Promise<SuiteResult> {
  if (!BENCH_DATABASE_URL) {
    const skipped = 'skipped: set TEST_DATABASE_URL (or BENCH_DATABASE_URL)';
    return {
      rows: [
        {
          name: 'two instances',
          value: skipped,
          reference: '',
          ratio: '',
          target: '',
          met: null,
        },
      ],
      lines: [`twin: ${skipped}`],
    };
  }
  const database = await benchSchema(BENCH_DATABASE_URL, 'twin');
  // One media folder for every instance, as one bucket would be.
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'confab-twin-'));
  const env = { ...database.env, DATA_DIR: dataDir, ADMIN_PASSWORD: PASSWORD };
  const rows: Row[] = [];
  const lines: string[] = [];
  try {
    // Migrated by a first start, then seeded as the conference suite is.
    await (await startAppServer(env)).stop();
    const seeded = await seedPostgres(
      database.client,
      dataDir,
      { memories: 5000, speakers: 200, questions: 20_000 },
      await seedImage(),
    );
    const first = await startAppServer(env);
    const lists = await conferenceLists(first.url, seeded.speakerIds[0] ?? '');
    const pollId = await openPoll(first.url, PASSWORD);
    await first.stop();
    const job = {
      speakerIds: seeded.speakerIds,
      arrivalPerSecond: ARRIVALS_PER_SECOND,
      seconds: SECONDS,
      windowSeconds: SECONDS,
      mode: 'profile' as const,
      concurrency: 0,
      pollId,
    };
    const half = { ...job, attendees: HALF };
    const log = (text: string) => console.log(`[twin] ${text}`);

    const runOn = async (
      count: number,
      start: () => Promise<BenchServer>,
      jobOf: Omit<AttendeesJob, 'url'>,
      probe = false,
    ) => {
      const servers: BenchServer[] = [];
      try {
        for (let i = 0; i < count; i++) servers.push(await start());
        const probes = probe && servers[0] ? probeWhileRunning(servers[0].url) : undefined;
        const cpuBefore = await machineCpu();
        const results = await Promise.all(
          servers.map((server, i) =>
            runProfile(server, { ...jobOf, namePrefix: `${String.fromCharCode(97 + i)}-` }),
          ),
        );
        const cpuAfter = await machineCpu();
        const probed = (await probes?.()) ?? '';
        const alive = servers.every((s) => s.alive());
        // The whole run (arrival included), every process on the machine.
        const coresBusy =
          ((cpuAfter.busy - cpuBefore.busy) / (cpuAfter.total - cpuBefore.total)) *
          os.cpus().length;
        return { results: together(results, coresBusy), each: results, alive, probed };
      } finally {
        for (const server of servers) await server.stop();
      }
    };
    const bare = () => startConferenceReference(lists);
    const app = () => startAppServer(env);

    const refTwin = await runOn(2, bare, half);
    log(`bare, 2 × ${fmt(HALF)}: ${describe(refTwin.results)}`);
    const appTwin = await runOn(2, app, half);
    const twin = appTwin.results;
    log(`app, 2 × ${fmt(HALF)}: ${describe(twin)}`);
    const refOne = await runOn(1, bare, half);
    log(`bare, 1 × ${fmt(HALF)}: ${describe(refOne.results)}`);
    const appOne = await runOn(1, app, half);
    const one = appOne.results;
    log(`app, 1 × ${fmt(HALF)}: ${describe(one)}`);

    // The file budget of an instance sized for half the audience: its default connection cap
    // (the open-file limit less 2,048) is HALF. Under 4,096 files the default keeps half of them
    // for files, so a small run names its cap instead.
    const fileLimit = HALF + 2048;
    const sized = fileLimit > 4096;
    const over = await runOn(
      1,
      () =>
        startAppServer(
          sized ? env : { ...env, MAX_CONNECTIONS: String(HALF) },
          sized ? { fileLimit } : {},
        ),
      { ...job, attendees: OVER },
      true,
    );
    const probed = over.probed;
    const past = over.results;
    // Refused cleanly: a socket's handshake or a request on a connection over the cap, 503.
    const pastHttp503 = past.statuses.reduce((n, statuses) => n + (statuses['503'] ?? 0), 0);
    const pastOther = past.errors - past.refused - pastHttp503;
    log(`app, 1 × ${fmt(OVER)} past its cap: ${describe(past)}; probe ${probed}`);

    const [a, b] = appTwin.each;
    const instance = (
      r: ProfileResult | undefined,
      name: string,
      ref: ProfileResult | undefined,
    ) =>
      r && ref
        ? {
            name: `instance ${name}: CPU and memory (steady)`,
            value: resources(r),
            reference: `${resources(ref)} (bare server ${name})`,
            ratio: `RSS ×${fmt(r.steady.server.rss / ref.steady.server.rss, 1)}`,
            target: 'informational',
            met: null,
          }
        : undefined;
    const met = twin.sockets >= ATTENDEES && twin.p99 < P99_TARGET_MS && twin.errors === 0;
    rows.push(
      {
        name: `${fmt(ATTENDEES)} attendees on 2 instances (PostgreSQL, events over NOTIFY), ${SECONDS} s steady`,
        value: describe(twin),
        reference: `${describe(refTwin.results)} (2 bare node:http + socket.io)`,
        ratio: `p99 ×${fmt(twin.p99 / Math.max(0.1, refTwin.results.p99), 1)}`,
        target: `p99 < ${P99_TARGET_MS} ms, 0 errors`,
        met,
      },
      ...[instance(a, 'A', refTwin.each[0]), instance(b, 'B', refTwin.each[1])].filter(
        (row) => row !== undefined,
      ),
      {
        name: `the same load's half on ONE instance: ${fmt(HALF)} attendees`,
        value: `${describe(one)}; ${appOne.each[0] ? resources(appOne.each[0]) : ''}`,
        reference: `${describe(refOne.results)} (1 bare server)`,
        ratio: `p99 ×${fmt(one.p99 / Math.max(0.1, refOne.results.p99), 1)}`,
        target: 'informational',
        met: null,
      },
      {
        name: `one instance past its limits: ${fmt(OVER)} attendees, ${sized ? `open-file limit ${fmt(fileLimit)} (default cap ${fmt(HALF)})` : `MAX_CONNECTIONS=${HALF}`}`,
        value: `${fmt(past.sockets)} sockets served, ${fmt(past.refused)} refused 503, ${fmt(pastHttp503)} requests answered 503 (new connections every 2 s: ${probed}), p99 ${fmt(past.p99, 1)} ms, ${pastOther} other errors, ${over.alive ? 'no crash' : 'CRASHED'}`,
        reference: `${describe(one)} (${fmt(HALF)} on one instance)`,
        ratio: '',
        target: 'excess refused 503 + Retry-After, the rest served, no crash',
        met: past.refused > 0 && pastOther === 0 && over.alive,
      },
    );
    lines.push(
      `twin: ${twin.sockets} attendees on 2 instances: p99 ${fmt(twin.p99, 1)} ms, errors ${twin.errors}`,
    );
    return { rows, lines };
  } finally {
    await database.drop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}
