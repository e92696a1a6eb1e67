import { fork } from 'node:child_process';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Pool } from 'undici';
import { startAppServer, startConferenceReference } from '../lib/processes.ts';
import { type Row, fmt } from '../lib/report.ts';

/** The keynote's poll: every attendee answers one question while every phone watches. */
const ATTENDEES = Number(process.env.BENCH_POLL_ATTENDEES ?? 5000);
const WATCHERS = Number(process.env.BENCH_POLL_WATCHERS ?? ATTENDEES);
/** The answers are spread evenly over this window. */
const SECONDS = Number(process.env.BENCH_POLL_SECONDS ?? 8);
const OPTIONS = ['Rust', 'Go', 'Zig', 'TypeScript'];
export const PASSWORD = 'bench-polls-admin';

export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/** Where the answers go and who watches: the same poll on one instance or several. */
export interface PollStorm {
  pollId: string;
  /** One token per answer, in order. */
  tokens: string[];
  /** The answers go to these servers in turn (one, or the instances of a scale-out). */
  answerUrls: string[];
  /**
   * The watchers' processes, one per server: `final` is the voters its sockets wait for (every
   * answer on a shared database; on servers that share nothing, the answers sent to this one).
   */
  watch: { url: string; sockets: number; final: number }[];
  /** The answers are spread evenly over this window. */
  seconds: number;
}

/** Starts a process of watchers (bench/lib/poll-watchers.ts); resolves once they are connected. */
async function startWatchers(url: string, pollId: string, sockets: number, final: number) {
  const watchers = fork(
    path.join(import.meta.dirname, '../lib/poll-watchers.ts'),
    [url, pollId, String(sockets), String(final)],
    { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const report = new Promise<{ finals: number[]; events: number }>((resolve, reject) => {
    watchers.on('message', (message: { finals?: number[]; events?: number }) => {
      if (message.finals) resolve({ finals: message.finals, events: message.events ?? 0 });
    });
    watchers.on('exit', (code) => {
      if (code !== 0) reject(new Error(`the watchers' process exited with ${code}`));
    });
  });
  await new Promise<void>((resolve, reject) => {
    watchers.on('message', (message: { ready?: boolean }) => {
      if (message.ready) resolve();
    });
    watchers.on('exit', (code) => reject(new Error(`the watchers' process exited with ${code}`)));
  });
  return {
    stop: () => {
      watchers.send({ stop: true });
      return report;
    },
  };
}

/**
 * The watchers connected (an event-wide poll reaches every socket); one answer per token, spread
 * over the window, sent to the answer servers in turn. Ack: PUT start → 200. Result lag: from the
 * last answer's 200 to the moment each socket first holds its final result.
 */
export async function measurePollStorm(storm: PollStorm) {
  const watchers = await Promise.all(
    storm.watch.map((w) => startWatchers(w.url, storm.pollId, w.sockets, w.final)),
  );
  const now = () => performance.timeOrigin + performance.now();

  // This process sends the answers and times them: its own lag is part of every ack.
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  const pools = storm.answerUrls.map(
    (url) => new Pool(new URL(url).origin, { connections: 128, pipelining: 1 }),
  );
  const answers = storm.tokens.length;
  const gap = (storm.seconds * 1000) / answers;
  const acks: number[] = [];
  let lastAck = 0;
  let errors = 0;
  const t0 = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let n = 0; n < answers; n++) {
    const wait = t0 + n * gap - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const start = performance.now();
    const pool = pools[n % pools.length];
    if (!pool) throw new Error('no server to answer');
    inFlight.push(
      pool
        .request({
          method: 'PUT',
          path: `/api/polls/${storm.pollId}/vote`,
          headers: {
            authorization: `Bearer ${storm.tokens[n] ?? ''}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ optionIds: [String((n % OPTIONS.length) + 1)] }),
        })
        .then(async (response) => {
          await response.body.dump();
          const at = performance.now();
          if (response.statusCode === 200) {
            acks.push(at - start);
            lastAck = Math.max(lastAck, now());
          } else errors++;
        })
        .catch(() => {
          errors++;
        }),
    );
  }
  await Promise.all(inFlight);
  const answered = (performance.now() - t0) / 1000;
  lag.disable();
  // The trailing update, then every socket's copy of it.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const reports = await Promise.all(watchers.map((w) => w.stop()));
  await Promise.all(pools.map((pool) => pool.close()));
  const finals = reports.flatMap((r) => r.finals);
  const events = reports.reduce((sum, r) => sum + r.events, 0);
  const sockets = storm.watch.reduce((sum, w) => sum + w.sockets, 0);
  acks.sort((a, b) => a - b);
  const lags = finals.map((at) => Math.max(0, at - lastAck)).sort((a, b) => a - b);
  return {
    ackP50: percentile(acks, 50),
    ackP99: percentile(acks, 99),
    lagP50: percentile(lags, 50),
    lagP99: percentile(lags, 99),
    missed: sockets - finals.length,
    errors,
    answered: acks.length,
    seconds: answered,
    eventsPerSocket: events / sockets,
    generatorLagP99: lag.percentile(99) / 1e6,
  };
}

/** The admin opens an event-wide single-choice poll with its results shown; answers its id. */
export async function openPoll(url: string, password: string): Promise<string> {
  const login = await fetch(`${url}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password }),
  });
  const { token } = (await login.json()) as { token: string };
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
  const created = await fetch(`${url}/api/polls`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      title: 'Which language for the next project?',
      type: 'single',
      options: OPTIONS.map((text) => ({ text })),
      resultsVisible: true,
    }),
  });
  const { _id: pollId } = (await created.json()) as { _id: string };
  await fetch(`${url}/api/polls/${pollId}`, {
    method: 'PATCH',
    headers,
    body: JSON.stringify({ state: 'open' }),
  });
  return pollId;
}

/** `count` attendees join (100 at a time, through the given servers in turn); their tokens. */
export async function joinVoters(urls: string[], count: number): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < count; i += 100) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(100, count - i) }, async (_, j) => {
        const joined = await fetch(`${urls[(i + j) % urls.length] ?? ''}/api/attendees`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: `voter-${i + j}` }),
        });
        return ((await joined.json()) as { token: string }).token;
      }),
    );
    tokens.push(...batch);
  }
  return tokens;
}

/**
 * 5,000 attendees answering one poll within 10 s while 5,000 sockets watch; beside bare
 * node:http + socket.io counting each answer in memory and sending the result at most 4 times a
 * second (the same pace), so the difference is what the app adds: tokens, validation, one
 * transaction per answer, and reading the result from the database.
 */
export async function livePoll(): Promise<Row[]> {
  const server = await startAppServer({ ADMIN_PASSWORD: PASSWORD });
  const reference = await startConferenceReference({});
  try {
    const pollId = await openPoll(server.url, PASSWORD);
    const tokens = await joinVoters([server.url], ATTENDEES);
    const one = (url: string): PollStorm => ({
      pollId,
      tokens,
      answerUrls: [url],
      watch: [{ url, sockets: WATCHERS, final: ATTENDEES }],
      seconds: SECONDS,
    });
    const app = await measurePollStorm(one(server.url));
    const ref = await measurePollStorm(one(reference.url));
    const listed = await fetch(`${server.url}/api/polls?event=1`);
    const [stored] = (await listed.json()) as { voters: number }[];
    const label = `${fmt(app.answered, 0)} answers by ${ATTENDEES} attendees in ${fmt(app.seconds, 1)} s, ${WATCHERS} sockets watching`;
    return [
      {
        name: `${label}: answer acknowledged p99 ms (errors: ${app.errors})`,
        value: fmt(app.ackP99, 1),
        reference: `${fmt(ref.ackP99, 1)} bare node:http (errors: ${ref.errors})`,
        ratio: fmt(app.ackP99 / ref.ackP99, 2),
        target: '< 200 ms, every answer 200',
        met: app.ackP99 < 200 && app.errors === 0 && app.answered === ATTENDEES,
      },
      {
        name: 'answer acknowledged median ms',
        value: fmt(app.ackP50, 1),
        reference: `${fmt(ref.ackP50, 1)} bare node:http`,
        ratio: fmt(app.ackP50 / ref.ackP50, 2),
        target: '',
        met: null,
      },
      {
        name: `final result on every socket p99 ms after the last answer (missed: ${app.missed})`,
        value: fmt(app.lagP99, 1),
        reference: `${fmt(ref.lagP99, 1)} bare socket.io, same pace (missed: ${ref.missed})`,
        ratio: fmt(app.lagP99 / ref.lagP99, 2),
        target: '< 1,000 ms',
        met: app.lagP99 < 1000 && app.missed === 0,
      },
      {
        name: 'final result median ms after the last answer',
        value: fmt(app.lagP50, 1),
        reference: `${fmt(ref.lagP50, 1)} bare socket.io`,
        ratio: fmt(app.lagP50 / ref.lagP50, 2),
        target: '',
        met: null,
      },
      {
        name: 'pollUpdated events per socket (at most 4 a second)',
        value: fmt(app.eventsPerSocket, 1),
        reference: `${fmt(ref.eventsPerSocket, 1)} same pace`,
        ratio: fmt(app.eventsPerSocket / ref.eventsPerSocket, 2),
        target: `<= ${fmt(app.seconds * 4 + 2, 0)}`,
        met: app.eventsPerSocket <= app.seconds * 4 + 2,
      },
      {
        name: 'voters counted in the database',
        value: fmt(stored?.voters ?? 0, 0),
        reference: `${fmt(app.answered, 0)} answered 200`,
        ratio: fmt((stored?.voters ?? 0) / app.answered, 2),
        target: 'equal',
        met: stored?.voters === app.answered,
      },
    ];
  } finally {
    await reference.stop();
    await server.stop();
  }
}
