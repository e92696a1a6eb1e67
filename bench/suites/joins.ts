import { pbkdf2Sync } from 'node:crypto';
import { chromium } from '@playwright/test';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { Client } from 'undici';
import { JoinProofs } from '../../src/server/attendees/join-proof.ts';
import { loadConfig } from '../../src/server/config.ts';
import { type JoinProof, joinChallengeResponseSchema } from '../../src/shared/schemas/attendee.ts';
import { CHROMIUM_FLAGS, chromiumPath } from '../../tests/e2e/chromium.ts';
import { ManualClock } from '../../tests/support/manual-clock.ts';
import { type BenchServer, startAppServer } from '../lib/processes.ts';
import { type Row, fmt } from '../lib/report.ts';

/** The script's goal, and the phone's, from the one-vote limits. */
const SCRIPT_TOKENS = 1_000;
const SCRIPT_TARGET_CORE_MINUTES = 15;
const RUSH_PHONES = 2_000;
const RUSH_MINUTES = 5;
const PHONE_TARGET_SECONDS = 3;
/** How long the script mints for real, to check the simulation against the server. */
const REAL_SECONDS = Number(process.env.BENCH_JOIN_SECONDS ?? 60);
/** The venue: phones behind one proxy address, on the proxy's keep-alive connections. */
const VENUE_PHONES = Number(process.env.BENCH_VENUE_PHONES ?? 2_000);
const UPSTREAM_CONNECTIONS = 16;
const VOTES_EACH = 3;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/**
 * PBKDF2-SHA-256 iterations a CPU second on one core of this machine, through Node's OpenSSL:
 * counted in this process's CPU time, so a busy machine does not lower it.
 */
function iterationsPerSecond(): number {
  const salt = Buffer.alloc(16, 1);
  const start = process.cpuUsage();
  const cpuSeconds = () => {
    const used = process.cpuUsage(start);
    return (used.user + used.system) / 1e6;
  };
  let iterations = 0;
  for (let i = 0; cpuSeconds() < 2; i += 1) {
    pbkdf2Sync(Buffer.from(`password-${i}`), salt, 5_000, 32, 'sha256');
    iterations += 5_000;
  }
  return iterations / cpuSeconds();
}

const pricing = () => loadConfig({}).joinProof;

/**
 * A script on one core minting tokens from one address as fast as it can, priced by the
 * server's own code on a simulated clock: a free join whenever the allowance has one, else a
 * challenge solved back to back at `rate` iterations a second. Stops at `tokens` or `seconds`.
 */
function simulateScript(rate: number, until: { tokens?: number; seconds?: number }) {
  const clock = new ManualClock('2026-11-27T09:00:00.000Z');
  const proofs = new JoinProofs(pricing(), clock, 'bench-secret');
  const start = clock.now().getTime();
  const elapsed = () => (clock.now().getTime() - start) / 1000;
  let free = 0;
  let paid = 0;
  let coreSeconds = 0;
  while (free + paid < (until.tokens ?? Infinity) && elapsed() < (until.seconds ?? Infinity)) {
    // A join's round trip on loopback, free or not.
    clock.advance(2);
    if (proofs.takeFree('script')) {
      free += 1;
      continue;
    }
    // The counter a challenge asks for is its price less up to a tenth: 0.95 on average.
    const seconds = ((proofs.priceFor('script') ?? 0) * 0.95) / rate;
    coreSeconds += seconds;
    clock.advance(seconds * 1000);
    paid += 1;
  }
  return { free, paid, coreSeconds, minutes: elapsed() / 60 };
}

/**
 * The highest price a phone pays at a venue's rush: `phones` behind one address arriving
 * evenly over `minutes`, each asking for a challenge on the join page.
 */
function rushPrices(phones: number, minutes: number) {
  const clock = new ManualClock('2026-11-27T09:00:00.000Z');
  const proofs = new JoinProofs(pricing(), clock, 'bench-secret');
  const gapMs = (minutes * 60_000) / phones;
  let highest = 0;
  let paid = 0;
  for (let i = 0; i < phones; i += 1) {
    clock.advance(gapMs);
    // The join page asks for a challenge first; a free join needs none.
    const work = proofs.priceFor('venue');
    if (work === null && proofs.takeFree('venue')) continue;
    highest = Math.max(highest, work ?? 0);
    paid += 1;
  }
  return { highest, paid };
}

const post = (url: string, body: unknown) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** Mints tokens for real from this process for `seconds`, solving on this one core. */
async function mintForReal(server: BenchServer, seconds: number) {
  const deadline = performance.now() + seconds * 1000;
  const cpuStart = process.cpuUsage();
  let free = 0;
  let paid = 0;
  let errors = 0;
  for (let i = 0; performance.now() < deadline; i += 1) {
    const joined = await post(`${server.url}/api/attendees`, { username: `bot-${i}` });
    if (joined.status === 201) {
      await joined.arrayBuffer();
      free += 1;
      continue;
    }
    await joined.arrayBuffer();
    const answer = await post(`${server.url}/api/attendees/challenge`, {});
    const { challenge } = joinChallengeResponseSchema.parse(await answer.json());
    if (!challenge) continue;
    const solution = await solveChallenge({ challenge, deriveKey });
    if (!solution) {
      errors += 1;
      continue;
    }
    const proof: JoinProof = { challenge, solution };
    const proven = await post(`${server.url}/api/attendees`, { username: `bot-${i}`, proof });
    await proven.arrayBuffer();
    if (proven.status === 201) paid += 1;
    else errors += 1;
  }
  const cpu = process.cpuUsage(cpuStart);
  return { free, paid, errors, cpuSeconds: (cpu.user + cpu.system) / 1e6 };
}

/** A phone's join at the rush, in the pinned Chromium: from the join page to its token. */
async function phoneJoin(): Promise<{ seconds: number; solvers: number; work: number }> {
  const { maxWork } = pricing();
  const server = await startAppServer({ JOIN_PROOF_FREE_PER_MINUTE: '0' });
  const browser = await chromium.launch({
    executablePath: await chromiumPath(),
    args: CHROMIUM_FLAGS,
  });
  try {
    // The rush: the address's demand is at its highest before this phone asks.
    for (let i = 0; i < 40; i += 1) {
      await (await post(`${server.url}/api/attendees/challenge`, {})).arrayBuffer();
    }
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    let challengedAt = 0;
    let joinedAt = 0;
    page.on('response', (response) => {
      if (response.url().endsWith('/api/attendees/challenge')) challengedAt = performance.now();
    });
    page.on('request', (request) => {
      if (request.url().endsWith('/api/attendees') && request.method() === 'POST') {
        joinedAt = performance.now();
      }
    });
    await page.goto(server.url);
    await page.getByLabel('Username').fill('Ada');
    // The person taps Join at once: what they wait for is the proof, not their typing.
    await page.getByRole('button', { name: 'Join Now' }).click();
    await page.waitForURL(/\/home$/, { timeout: 120_000 });
    const solvers = await page.evaluate(() =>
      Math.max(1, Math.min(4, (navigator.hardwareConcurrency || 2) - 1)),
    );
    return { seconds: (joinedAt - challengedAt) / 1000, solvers, work: maxWork };
  } finally {
    await browser.close();
    await server.stop();
  }
}

/**
 * A venue behind one proxy address: `VENUE_PHONES` phones load the join page, join (a proof of
 * work past the free joins, priced tiny here: the phone's cost is measured apart), load /home,
 * read the questions, vote three times and load /questions, all on the proxy's few keep-alive
 * connections with one X-Forwarded-For. The reference: the same phones straight to the app, each
 * on its own connection.
 */
async function venue(behindProxy: boolean) {
  const server = await startAppServer({
    TRUST_PROXY: behindProxy ? 'true' : 'false',
    JOIN_PROOF_MAX_WORK: '5000',
    WRITE_RATE_LIMIT: '60',
    WRITE_RATE_LIMIT_PER_ADDRESS: '3000',
    JOIN_PROOF_FREE_PER_MINUTE: '30',
  });
  try {
    const form = new FormData();
    form.set('name', 'Grace Hopper');
    form.set('stack', 'Compilers');
    form.set('bio', 'Found the first bug.');
    const picture = await import('../../tests/support/speakers.ts').then((m) => m.pngImage());
    form.set('picture', new Blob([new Uint8Array(picture)], { type: 'image/png' }), 'p.png');
    const signed = await fetch(`${server.url}/api/speakersadd`, { method: 'POST', body: form });
    const { speaker } = (await signed.json()) as { speaker: { _id: string } };
    const questionIds: string[] = [];
    for (let i = 0; i < 20; i += 1) {
      const asked = await post(`${server.url}/questions`, {
        speakerId: speaker._id,
        question: `What comes after step ${i}?`,
        askerUsername: `asker-${i}`,
      });
      questionIds.push(((await asked.json()) as { _id: string })._id);
    }
    const statuses = new Map<string, number>();
    const latencies: number[] = [];
    let errors = 0;
    const pool = Array.from(
      { length: behindProxy ? UPSTREAM_CONNECTIONS : 0 },
      () => new Client(server.url, { pipelining: 1, connections: 1 } as never),
    );
    const phoneAt = async (index: number) => {
      const own = behindProxy ? undefined : new Client(server.url, { pipelining: 1 });
      const connection = own ?? pool[index % UPSTREAM_CONNECTIONS];
      if (!connection) throw new Error('no connection');
      const proxied = behindProxy
        ? { 'x-forwarded-for': '198.51.100.10', 'x-real-port': String(10_000 + index) }
        : {};
      const call = async (
        method: 'GET' | 'POST' | 'PUT',
        path: string,
        headers: Record<string, string> = {},
        body?: unknown,
      ) => {
        const start = performance.now();
        const answer = await connection.request({
          method,
          path,
          headers: {
            ...proxied,
            ...headers,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await answer.body.text();
        latencies.push(performance.now() - start);
        const kind = `${method} ${path.split('?')[0]?.replace(/[0-9a-f-]{36}/g, ':id') ?? ''}`;
        const key = `${kind} ${answer.statusCode}`;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
        return { status: answer.statusCode, text };
      };
      try {
        const page = { accept: 'text/html' };
        const device = { 'x-confab-user': `phone-${index}` };
        await call('GET', '/', page);
        // As the app does: a challenge asked for on the join page, solved, sent with the join;
        // when the free joins ran out meanwhile (428), a new challenge and the join again.
        const prove = async () => {
          const challenge = await call('POST', '/api/attendees/challenge', device, {});
          const offered = joinChallengeResponseSchema.parse(JSON.parse(challenge.text)).challenge;
          if (!offered) return undefined;
          const solution = await solveChallenge({ challenge: offered, deriveKey });
          return solution ? { challenge: offered, solution } : undefined;
        };
        const joinWith = (proof: JoinProof | undefined) =>
          call('POST', '/api/attendees', device, {
            username: `phone-${index}`,
            ...(proof && { proof }),
          });
        let joined = await joinWith(await prove());
        if (joined.status === 428) joined = await joinWith(await prove());
        if (joined.status !== 201) {
          if (joined.status === 428) errors += 1;
          return;
        }
        const { token } = JSON.parse(joined.text) as { token: string };
        const attendee = { ...device, authorization: `Bearer ${token}` };
        await call('GET', '/home', page);
        await call('GET', `/api/questions/realtime?speakerId=${speaker._id}`, device);
        for (let v = 0; v < VOTES_EACH; v += 1) {
          const id = questionIds[(index * 7 + v * 3) % questionIds.length] ?? '';
          await call('PUT', `/api/questions/${id}/vote`, attendee);
        }
        await call('GET', '/questions', page);
      } finally {
        await own?.close();
      }
    };
    // The rush: every phone within a minute (the issue's venue takes five), each arriving on time.
    const started = performance.now();
    const gapMs = 60_000 / VENUE_PHONES;
    await Promise.all(
      Array.from({ length: VENUE_PHONES }, async (_, index) => {
        await new Promise((resolve) => setTimeout(resolve, index * gapMs));
        await phoneAt(index);
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    await Promise.all(pool.map((connection) => connection.close()));
    // A 428 is the server asking for a proof, which the phone then sends: not an error.
    for (const [key, count] of statuses) {
      const status = Number(key.split(' ').at(-1));
      if (status >= 400 && status !== 428) errors += count;
    }
    latencies.sort((a, b) => a - b);
    return { errors, seconds, p99: percentile(latencies, 99), statuses };
  } finally {
    await server.stop();
  }
}

/**
 * One person, one vote: what 1,000 tokens from one address cost a script, beside a phone's
 * join at a venue's rush; and a venue of 2,000 behind one proxy address with 0 errors.
 */
export async function joinCosts(): Promise<Row[]> {
  const rate = iterationsPerSecond();
  const { freePerMinute } = pricing();
  const rows: Row[] = [];

  // The script: simulated on the server's pricing, then checked against the real server.
  const script = simulateScript(rate, { tokens: SCRIPT_TOKENS });
  const wallMinutes = script.minutes;
  const coreMinutes = script.coreSeconds / 60;
  rows.push({
    name: `${fmt(SCRIPT_TOKENS)} tokens from one address, minted as fast as one core solves`,
    value: `${fmt(coreMinutes, 1)} core-min (${fmt(wallMinutes, 1)} min)`,
    reference: `${fmt(SCRIPT_TOKENS / freePerMinute, 1)} min waiting for free joins only`,
    ratio: '',
    target: `≥ ${SCRIPT_TARGET_CORE_MINUTES} core-min`,
    met: coreMinutes >= SCRIPT_TARGET_CORE_MINUTES,
  });

  const server = await startAppServer({ JOIN_PROOF_FREE_PER_MINUTE: String(freePerMinute) });
  try {
    const real = await mintForReal(server, REAL_SECONDS);
    const simulated = simulateScript(rate, { seconds: REAL_SECONDS });
    const perPaid = (coreSeconds: number, paid: number) =>
      paid > 0 ? fmt(coreSeconds / paid, 2) : '–';
    rows.push({
      name: `the same script for real against the server, ${REAL_SECONDS} s: tokens free + paid, core-s a paid token`,
      value: `${real.free} + ${real.paid}, ${perPaid(real.cpuSeconds, real.paid)} core-s, ${real.errors} errors`,
      reference: `simulated: ${simulated.free} + ${simulated.paid}, ${perPaid(simulated.coreSeconds, simulated.paid)} core-s (${fmt(rate / 1e6, 2)} M PBKDF2 iterations a CPU second)`,
      ratio: '',
      target: 'as simulated',
      met: null,
    });
  } finally {
    await server.stop();
  }

  const rush = rushPrices(RUSH_PHONES, RUSH_MINUTES);
  const phone = await phoneJoin();
  rows.push({
    name: `a phone's join at the rush (${fmt(RUSH_PHONES)} in ${RUSH_MINUTES} min behind one address; ${fmt(rush.paid)} pay), Chromium, ${phone.solvers} worker(s)`,
    value: `${fmt(phone.seconds, 2)} s`,
    reference: `${fmt(rush.highest / 1e6, 1)} M iterations = ${fmt(rush.highest / rate, 2)} core-s of this machine`,
    ratio: '',
    target: `≤ ${PHONE_TARGET_SECONDS} s`,
    met: phone.seconds <= PHONE_TARGET_SECONDS,
  });

  for (const behindProxy of [true, false]) {
    const result = await venue(behindProxy);
    console.log(
      `[joins] venue ${behindProxy ? 'behind one proxy address' : 'straight, one address'}:`,
      Object.fromEntries(result.statuses),
    );
    rows.push({
      name: `${fmt(VENUE_PHONES)} phones ${behindProxy ? `behind one proxy address (${UPSTREAM_CONNECTIONS} upstream connections)` : 'behind one address, no proxy'}: pages, join, 3 votes`,
      value: `${result.errors} errors, p99 ${fmt(result.p99, 1)} ms, ${fmt(result.seconds, 1)} s`,
      reference: '',
      ratio: '',
      target: '0 errors',
      met: result.errors === 0,
    });
  }
  return rows;
}
