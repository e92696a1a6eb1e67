import { fork } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import type { JoinPhonesJob, JoinPhonesReport } from '../lib/join-phones.ts';
import { BENCH_DATABASE_URL, benchSchema } from '../lib/postgres.ts';
import {
  type BenchServer,
  answersOf,
  startAppServer,
  startConferenceReference,
} from '../lib/processes.ts';
import { type Row, type SuiteResult, fmt } from '../lib/report.ts';
import { seedPostgres } from '../lib/seed.ts';
import { seedImage } from './gallery.ts';
import { PASSWORD, type PollStorm, measurePollStorm, openPoll, percentile } from './polls.ts';

/** The keynote's rush: this many phones join within `SECONDS`, half on each instance. */
const PHONES = Number(process.env.BENCH_STORM_PHONES ?? 5000);
const SECONDS = Number(process.env.BENCH_STORM_SECONDS ?? 10);
/**
 * Phones per loopback address (127.0.0.2 and up): half of them join each instance, 10 a minute
 * an address and instance, within the 30 free joins a minute (`JOIN_PROOF_FREE_PER_MINUTE`).
 */
const PHONES_PER_ADDRESS = 20;
const JOIN_P99_TARGET_MS = 2_000;
const ACK_P99_TARGET_MS = 200;
const LAG_P99_TARGET_MS = 1_000;

/** The n-th loopback address from 127.0.0.2. */
const loopback = (n: number) => {
  const host = n + 2;
  return `127.0.${(host >> 8) & 255}.${host & 255}`;
};

/**
 * The rush on `servers`: phone i starts at its moment (evenly over `SECONDS`), from its
 * address, on server i mod n; one process of phones per server. Resolves once every phone
 * joined or failed and their sockets are closed.
 */
async function rush(servers: BenchServer[]) {
  const startAt = performance.timeOrigin + performance.now() + 3_000;
  const gapMs = (SECONDS * 1000) / PHONES;
  const reports = await Promise.all(
    servers.map(async (server, s) => {
      const child = fork(path.join(import.meta.dirname, '../lib/join-phones.ts'), [], {
        execArgv: ['--import', 'tsx', '--max-old-space-size=4096'],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      const phones: JoinPhonesJob['phones'] = [];
      for (let i = s; i < PHONES; i += servers.length) {
        phones.push({
          index: i,
          address: loopback(Math.floor(i / PHONES_PER_ADDRESS)),
          at: startAt + i * gapMs,
        });
      }
      const report = await new Promise<JoinPhonesReport>((resolve, reject) => {
        child.on('message', (message: { joined?: boolean } | JoinPhonesReport) => {
          if ('joined' in message) child.send('close');
          else resolve(message as JoinPhonesReport);
        });
        child.once('exit', (code) => reject(new Error(`the phones' process exited with ${code}`)));
        child.send({ url: server.url, phones } satisfies JoinPhonesJob);
      });
      await exited;
      return { report, phones };
    }),
  );
  const joins = reports.flatMap(({ report }) => report.joins).sort((a, b) => a - b);
  const tokens: string[] = [];
  for (const { report, phones } of reports) {
    phones.forEach((phone, place) => (tokens[phone.index] = report.tokens[place] ?? ''));
  }
  const statuses: Record<string, number> = {};
  for (const { report } of reports) {
    for (const [key, count] of Object.entries(report.statuses)) {
      statuses[key] = (statuses[key] ?? 0) + count;
    }
  }
  const lastJoinedAt = Math.max(...reports.map(({ report }) => report.lastJoinedAt));
  return {
    joined: joins.length,
    seconds: (lastJoinedAt - startAt) / 1000,
    p50: percentile(joins, 50),
    p99: percentile(joins, 99),
    errors: reports.reduce((sum, { report }) => sum + report.errors, 0),
    statuses,
    tokens,
    generatorLagP99: Math.max(...reports.map(({ report }) => report.lagP99)),
  };
}

/**
 * What the database's connections wait on while the answers arrive, sampled every 100 ms until
 * stopped: the most connections seen at once waiting on a lock (the answers to one poll take its
 * row in turn) and holding a transaction open between two statements.
 */
function sampleWaits(client: pg.ClientBase) {
  let lock = 0;
  let idle = 0;
  let samples = 0;
  const timer = setInterval(() => {
    client
      .query<{ lock: number; idle: number }>(
        `select count(*) filter (where wait_event_type = 'Lock')::int as lock,
                count(*) filter (where state = 'idle in transaction')::int as idle
           from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
      )
      .then(({ rows: [row] }) => {
        samples++;
        lock = Math.max(lock, row?.lock ?? 0);
        idle = Math.max(idle, row?.idle ?? 0);
      })
      .catch(() => undefined);
  }, 100);
  return async () => {
    clearInterval(timer);
    // The last sample in flight settles on the same connection before it is used again.
    await client.query('select 1');
    return `at most ${lock} connections waiting on a lock and ${idle} idle in a transaction at once (${samples} samples)`;
  };
}

/** Failed requests by kind, e.g. " (POST /api/attendees 429: 3)". */
const failures = (statuses: Record<string, number>) => {
  const failed = Object.entries(statuses).filter(([key]) => !/ [23]\d\d$/.test(key));
  return failed.length === 0 ? '' : ` (${failed.map(([k, n]) => `${k}: ${n}`).join(', ')})`;
};

/**
 * The keynote: `PHONES` phones join within `SECONDS` on two instances sharing PostgreSQL (the
 * join page, a challenge, the attendee token, /home and the gallery's first page, a socket),
 * beside two bare node:http + socket.io servers answering the app's own pages; then the same
 * number answer one poll within `SECONDS` while as many sockets watch it, half on each.
 */
export async function keynoteStorm(): Promise<SuiteResult> {
  if (!BENCH_DATABASE_URL) {
    const skipped = 'skipped: set TEST_DATABASE_URL (or BENCH_DATABASE_URL)';
    return {
      rows: [
        { name: 'the keynote', value: skipped, reference: '', ratio: '', target: '', met: null },
      ],
      lines: [`storm: ${skipped}`],
    };
  }
  const database = await benchSchema(BENCH_DATABASE_URL, 'storm');
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'confab-storm-'));
  // The production limits (startAppServer raises them for the other suites): each phone's
  // address stays within its free joins, and no proxy is trusted, so the address a limit counts
  // is the connection's own (127.0.0.x).
  const env = {
    ...database.env,
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: PASSWORD,
    WRITE_RATE_LIMIT: '60',
    WRITE_RATE_LIMIT_PER_ADDRESS: '3000',
    JOIN_PROOF_FREE_PER_MINUTE: '30',
    TRUST_PROXY: 'false',
  };
  const servers: BenchServer[] = [];
  const references: BenchServer[] = [];
  const log = (text: string) => console.log(`[storm] ${text}`);
  try {
    await (await startAppServer(env)).stop();
    await seedPostgres(
      database.client,
      dataDir,
      { memories: 5000, speakers: 200, questions: 20_000 },
      await seedImage(),
    );
    servers.push(await startAppServer(env), await startAppServer(env));
    const [a] = servers;
    if (!a) throw new Error('no server');
    const page = { accept: 'text/html', 'accept-encoding': 'identity' };
    const pages = await answersOf(a.url, [
      ['/', '/', page],
      ['/home', '/home', page],
      ['/api/memory', '/api/memory?limit=60'],
    ]);
    for (let i = 0; i < 2; i++) references.push(await startConferenceReference(pages));

    const refJoins = await rush(references);
    log(
      `bare: ${refJoins.joined} joined, p99 ${fmt(refJoins.p99, 1)} ms${failures(refJoins.statuses)}`,
    );
    const joins = await rush(servers);
    log(`app: ${joins.joined} joined, p99 ${fmt(joins.p99, 1)} ms${failures(joins.statuses)}`);

    // The poll storm: the phones that joined answer, the watchers split over the instances.
    const pollId = await openPoll(a.url, PASSWORD);
    const tokens = joins.tokens.filter(Boolean);
    const storm = (urls: string[], shared: boolean): PollStorm => ({
      pollId,
      tokens,
      answerUrls: urls,
      watch: urls.map((url, i) => ({
        url,
        sockets: Math.floor(PHONES / urls.length) + (i < PHONES % urls.length ? 1 : 0),
        final: shared
          ? tokens.length
          : Math.floor(tokens.length / urls.length) + (i < tokens.length % urls.length ? 1 : 0),
      })),
      seconds: SECONDS,
    });
    const waits = sampleWaits(database.client);
    const votes = await measurePollStorm(
      storm(
        servers.map((s) => s.url),
        true,
      ),
    );
    const waited = await waits();
    log(
      `app: ${votes.answered} answers, ack p99 ${fmt(votes.ackP99, 1)} ms, lag p99 ${fmt(votes.lagP99, 1)} ms; PostgreSQL meanwhile: ${waited}`,
    );
    const refVotes = await measurePollStorm(
      storm(
        references.map((s) => s.url),
        false,
      ),
    );
    const listed = await fetch(`${a.url}/api/polls?event=1`);
    const [stored] = (await listed.json()) as { voters: number }[];

    const joinsMet =
      joins.joined === PHONES && joins.p99 < JOIN_P99_TARGET_MS && joins.errors === 0;
    const voteErrors = votes.errors + votes.missed;
    const rows: Row[] = [
      {
        name: `${fmt(PHONES)} phones join within ${SECONDS} s on 2 instances (page, challenge, token, /home, first page, socket; ${PHONES_PER_ADDRESS} phones an address from 127.0.0.2, within the free joins: no proof of work)`,
        value: `${joins.joined} joined in ${fmt(joins.seconds, 1)} s, p50/p99 ${fmt(joins.p50, 1)}/${fmt(joins.p99, 1)} ms, errors ${joins.errors}${failures(joins.statuses)}`,
        reference: `${refJoins.joined} joined in ${fmt(refJoins.seconds, 1)} s, p50/p99 ${fmt(refJoins.p50, 1)}/${fmt(refJoins.p99, 1)} ms, errors ${refJoins.errors} (2 bare node:http + socket.io)`,
        ratio: `p99 ×${fmt(joins.p99 / Math.max(0.1, refJoins.p99), 1)}`,
        target: `p99 < ${fmt(JOIN_P99_TARGET_MS)} ms, 0 errors`,
        met: joinsMet,
      },
      {
        name: "the phones' generator lag p99 (2 processes) while joining",
        value: `${fmt(joins.generatorLagP99, 1)} ms`,
        reference: `${fmt(refJoins.generatorLagP99, 1)} ms against the bare servers`,
        ratio: '',
        target: 'informational',
        met: null,
      },
      {
        name: `${fmt(votes.answered)} answers in ${fmt(votes.seconds, 1)} s to one poll on 2 instances, ${fmt(PHONES)} sockets watching (half on each): ack p99 / median`,
        value: `${fmt(votes.ackP99, 1)} / ${fmt(votes.ackP50, 1)} ms (errors ${votes.errors})`,
        reference: `${fmt(refVotes.ackP99, 1)} / ${fmt(refVotes.ackP50, 1)} ms (2 bare servers, errors ${refVotes.errors})`,
        ratio: fmt(votes.ackP99 / Math.max(0.1, refVotes.ackP99), 2),
        target: `< ${ACK_P99_TARGET_MS} ms`,
        met: votes.ackP99 < ACK_P99_TARGET_MS && votes.errors === 0,
      },
      {
        name: 'final result on every socket after the last answer: p99 / median (missed)',
        value: `${fmt(votes.lagP99, 1)} / ${fmt(votes.lagP50, 1)} ms (missed ${votes.missed})`,
        reference: `${fmt(refVotes.lagP99, 1)} / ${fmt(refVotes.lagP50, 1)} ms (missed ${refVotes.missed}; each bare server its own count)`,
        ratio: fmt(votes.lagP99 / Math.max(0.1, refVotes.lagP99), 2),
        target: `< ${fmt(LAG_P99_TARGET_MS)} ms`,
        met: votes.lagP99 < LAG_P99_TARGET_MS && votes.missed === 0,
      },
      {
        name: 'pollUpdated per socket; voters counted; the answering process lag p99',
        value: `${fmt(votes.eventsPerSocket, 1)}; ${fmt(stored?.voters ?? 0)} of ${fmt(votes.answered)}; ${fmt(votes.generatorLagP99, 1)} ms`,
        reference: `${fmt(refVotes.eventsPerSocket, 1)}; ${fmt(refVotes.generatorLagP99, 1)} ms against the bare servers`,
        ratio: '',
        target: `<= ${fmt(votes.seconds * 4 + 2, 0)} each; equal`,
        met: votes.eventsPerSocket <= votes.seconds * 4 + 2 && stored?.voters === votes.answered,
      },
    ];
    return {
      rows,
      lines: [
        `storm: joins ${joins.joined} joins in ${fmt(joins.seconds, 1)} s: p99 ${fmt(joins.p99, 1)} ms, errors ${joins.errors}`,
        `storm: votes ${votes.answered} votes in ${fmt(votes.seconds, 1)} s: ack p99 ${fmt(votes.ackP99, 1)} ms, results lag p99 ${fmt(votes.lagP99, 1)} ms, errors ${voteErrors}`,
      ],
    };
  } finally {
    for (const server of [...servers, ...references]) await server.stop();
    await database.drop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}
