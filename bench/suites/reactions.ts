import { fork } from 'node:child_process';
import path from 'node:path';
import { Pool } from 'undici';
import { addRoom, addSession } from '../../tests/support/programme.ts';
import { startAppServer, startConferenceReference } from '../lib/processes.ts';
import { type Row, fmt } from '../lib/report.ts';

/** A talk's hall: every attendee taps once a second for SECONDS while as many sockets watch. */
const ATTENDEES = Number(process.env.BENCH_REACTION_ATTENDEES ?? 2000);
const WATCHERS = Number(process.env.BENCH_REACTION_WATCHERS ?? ATTENDEES);
const SECONDS = Number(process.env.BENCH_REACTION_SECONDS ?? 60);
const EMOJI = ['👏', '❤️', '😂', '😮', '🤔', '🎉'];
const PASSWORD = 'bench-reactions-admin';

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

interface Target {
  url: string;
  sessionId: string;
  tokens: string[];
}

/**
 * WATCHERS sockets watch the session; each of ATTENDEES taps once a second for SECONDS, the taps
 * spread evenly over each second. Ack: POST start → 202.
 */
async function measure(target: Target) {
  const watchers = fork(
    path.join(import.meta.dirname, '../lib/reaction-watchers.ts'),
    [target.url, target.sessionId, String(WATCHERS)],
    { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  interface Report {
    events: number;
    gaps: number;
    spanMs: number;
    summed: number;
  }
  const report = new Promise<Report>((resolve, reject) => {
    watchers.on('message', (message: Partial<Report>) => {
      if (message.events !== undefined) {
        resolve({
          events: message.events,
          gaps: message.gaps ?? 0,
          spanMs: message.spanMs ?? 0,
          summed: message.summed ?? 0,
        });
      }
    });
    watchers.on('exit', (code) => {
      if (code !== 0) reject(new Error(`the watchers' process exited with ${code}`));
    });
  });
  await new Promise<void>((resolve) => {
    watchers.on('message', (message: { ready?: boolean }) => {
      if (message.ready) resolve();
    });
  });

  const pool = new Pool(new URL(target.url).origin, { connections: 128, pipelining: 1 });
  const taps = ATTENDEES * SECONDS;
  const gap = 1000 / ATTENDEES;
  const acks: number[] = [];
  let limited = 0;
  let errors = 0;
  const t0 = performance.now();
  const inFlight = new Set<Promise<void>>();
  for (let n = 0; n < taps; n++) {
    const wait = t0 + n * gap - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const start = performance.now();
    const request = pool
      .request({
        method: 'POST',
        path: '/api/reactions',
        headers: {
          authorization: `Bearer ${target.tokens[n % ATTENDEES] ?? ''}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          emoji: EMOJI[n % EMOJI.length],
          sessionId: target.sessionId,
        }),
      })
      .then(async (response) => {
        await response.body.dump();
        if (response.statusCode === 202) acks.push(performance.now() - start);
        else if (response.statusCode === 429) limited++;
        else errors++;
      })
      .catch(() => {
        errors++;
      })
      .finally(() => inFlight.delete(request));
    inFlight.add(request);
  }
  await Promise.all(inFlight);
  const seconds = (performance.now() - t0) / 1000;
  // The last window's sum, then every socket's copy of it.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  watchers.send({ stop: true });
  const { gaps, spanMs, summed } = await report;
  await pool.close();
  acks.sort((a, b) => a - b);
  return {
    ackP50: percentile(acks, 50),
    ackP99: percentile(acks, 99),
    taken: acks.length,
    limited,
    errors,
    seconds,
    // Between each socket's first and last event: the trailing sum after the taps is counted
    // over the time it took, not over the taps' window.
    eventsPerSocketPerSecond: spanMs > 0 ? gaps / (spanMs / 1000) : 0,
    summed,
  };
}

/** A room and a talk in it; ATTENDEES join. */
async function prepare(url: string): Promise<Target> {
  const login = await fetch(`${url}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: PASSWORD }),
  });
  const { token } = (await login.json()) as { token: string };
  const room = await addRoom(url, token, 'Keynote hall');
  const now = Date.now();
  const session = await addSession(url, token, {
    title: 'The keynote',
    roomId: room._id,
    startsAt: new Date(now - 600_000).toISOString().replace(/\.\d+Z$/, 'Z'),
    endsAt: new Date(now + 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z'),
  });
  const tokens: string[] = [];
  for (let i = 0; i < ATTENDEES; i += 100) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(100, ATTENDEES - i) }, async (_, j) => {
        const joined = await fetch(`${url}/api/attendees`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: `tapper-${i + j}` }),
        });
        return ((await joined.json()) as { token: string }).token;
      }),
    );
    tokens.push(...batch);
  }
  return { url, sessionId: session._id, tokens };
}

/**
 * A hall of ATTENDEES tapping once a second for SECONDS while as many sockets watch the talk;
 * beside bare node:http + socket.io summing the taps in memory at the same pace, so the
 * difference is what the app adds: tokens, validation, the session's read, the rate limit and
 * the domain event per tap.
 */
export async function reactionStorm(): Promise<Row[]> {
  const server = await startAppServer({ ADMIN_PASSWORD: PASSWORD });
  const reference = await startConferenceReference({});
  try {
    const target = await prepare(server.url);
    const app = await measure(target);
    const ref = await measure({ ...target, url: reference.url });
    const label = `${fmt(app.taken, 0)} taps by ${ATTENDEES} attendees in ${fmt(app.seconds, 1)} s, ${WATCHERS} sockets watching`;
    return [
      {
        name: `${label}: tap acknowledged p99 ms (429: ${app.limited}, errors: ${app.errors})`,
        value: fmt(app.ackP99, 1),
        reference: `${fmt(ref.ackP99, 1)} bare node:http (errors: ${ref.errors})`,
        ratio: fmt(app.ackP99 / ref.ackP99, 2),
        target: '< 100 ms, every tap 202',
        met: app.ackP99 < 100 && app.errors === 0 && app.limited === 0,
      },
      {
        name: 'tap acknowledged median ms',
        value: fmt(app.ackP50, 1),
        reference: `${fmt(ref.ackP50, 1)} bare node:http`,
        ratio: fmt(app.ackP50 / ref.ackP50, 2),
        target: '',
        met: null,
      },
      {
        name: '`reactions` events per socket per second',
        value: fmt(app.eventsPerSocketPerSecond, 2),
        reference: `${fmt(ref.eventsPerSocketPerSecond, 2)} same pace`,
        ratio: fmt(app.eventsPerSocketPerSecond / ref.eventsPerSocketPerSecond, 2),
        target: '<= 4',
        met: app.eventsPerSocketPerSecond <= 4,
      },
      {
        name: 'taps in the sums one socket received',
        value: fmt(app.summed, 0),
        reference: `${fmt(app.taken, 0)} answered 202`,
        ratio: fmt(app.summed / app.taken, 3),
        target: 'equal',
        met: app.summed === app.taken,
      },
    ];
  } finally {
    await reference.stop();
    await server.stop();
  }
}
