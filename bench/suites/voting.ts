import { io, type Socket } from 'socket.io-client';
import { Pool } from 'undici';
import { startConferenceReference } from '../lib/processes.ts';
import { type Row, fmt } from '../lib/report.ts';
import { seededServer } from './gallery.ts';

/** The keynote room: attendees voting on one speaker's questions while the room watches. */
const VOTERS = 1000;
const QUESTIONS = 50;
const WATCHERS = 1000;
/** Votes per attendee over the run: 3,000 votes within the minute. */
const VOTES_EACH = 3;
/** Sockets whose every event is timed (all of them receive; timing 1,000 × 3,000 is the bench's). */
const TIMED = 100;
const SECONDS = Number(process.env.BENCH_VOTE_SECONDS ?? 60);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

interface Target {
  url: string;
  speakerId: string;
  questionIds: string[];
  /** One token per voter. */
  tokens: string[];
}

/**
 * WATCHERS sockets in the speaker's room; VOTERS attendees each vote VOTES_EACH times on
 * random questions, spread evenly over SECONDS. Vote latency: PUT start → answer. Delivery:
 * for each vote (its answer says the count it made), the time until a timed socket first sees
 * that question with at least that count, from the PUT's start.
 */
async function measure(target: Target) {
  const sockets: Socket[] = [];
  /** Per timed socket and question: the arrivals, as [time, votes]. */
  const arrivals: Map<string, [number, number][]>[] = [];
  await Promise.all(
    Array.from(
      { length: WATCHERS },
      (_, i) =>
        new Promise<void>((resolve, reject) => {
          const socket = io(target.url, {
            transports: ['websocket'],
            forceNew: true,
            reconnection: false,
          });
          sockets.push(socket);
          if (i < TIMED) {
            const seen = new Map<string, [number, number][]>();
            arrivals.push(seen);
            socket.on(
              'questionUpdated',
              (payload: { question: { _id: string; votes: number } }) => {
                const list = seen.get(payload.question._id) ?? [];
                list.push([performance.now(), payload.question.votes]);
                seen.set(payload.question._id, list);
              },
            );
          }
          socket.on('connect', () => {
            socket
              .emitWithAck('watch', { room: 'speaker', speakerId: target.speakerId })
              .then(() => resolve(), reject);
          });
          socket.on('connect_error', reject);
        }),
    ),
  );

  const pool = new Pool(new URL(target.url).origin, { connections: 128, pipelining: 1 });
  const total = VOTERS * VOTES_EACH;
  const gap = (SECONDS * 1000) / total;
  const votes: { start: number; ms: number; questionId: string; count: number }[] = [];
  let errors = 0;
  const t0 = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let n = 0; n < total; n++) {
    const due = t0 + n * gap;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const voter = n % VOTERS;
    // Each voter's votes go to different questions (a second vote on one would change nothing).
    const questionId =
      target.questionIds[(voter * 7 + Math.floor(n / VOTERS) * 13) % target.questionIds.length] ??
      '';
    const start = performance.now();
    inFlight.push(
      pool
        .request({
          method: 'PUT',
          path: `/api/questions/${questionId}/vote`,
          headers: {
            authorization: `Bearer ${target.tokens[voter] ?? ''}`,
            'x-speaker-id': target.speakerId,
          },
        })
        .then(async (response) => {
          const body = (await response.body.json()) as { question?: { votes?: number } };
          if (response.statusCode !== 200) errors++;
          votes.push({
            start,
            ms: performance.now() - start,
            questionId,
            count: body.question?.votes ?? 0,
          });
        })
        .catch(() => {
          errors++;
        }),
    );
  }
  await Promise.all(inFlight);
  // The last coalesced events.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const elapsed = (performance.now() - t0) / 1000;

  const deliveries: number[] = [];
  let missed = 0;
  for (const seen of arrivals) {
    for (const v of votes) {
      const list = seen.get(v.questionId) ?? [];
      const first = list.find(([, count]) => count >= v.count);
      if (first) deliveries.push(Math.max(0, first[0] - v.start));
      else missed++;
    }
  }
  for (const socket of sockets) socket.close();
  await pool.close();
  const latencies = votes.map((v) => v.ms).sort((a, b) => a - b);
  deliveries.sort((a, b) => a - b);
  const events = arrivals.reduce(
    (sum, seen) => sum + [...seen.values()].reduce((n, list) => n + list.length, 0),
    0,
  );
  return {
    voteP50: percentile(latencies, 50),
    voteP99: percentile(latencies, 99),
    deliveryP50: percentile(deliveries, 50),
    deliveryP99: percentile(deliveries, 99),
    errors,
    missed,
    votes: votes.length,
    seconds: elapsed,
    eventsPerSocket: events / Math.max(1, arrivals.length),
  };
}

/** Signs a speaker up through the API with a tiny picture, asks QUESTIONS questions, joins VOTERS. */
async function prepare(url: string): Promise<Target> {
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    'base64',
  );
  const form = new FormData();
  form.append('name', `Keynote Speaker ${Date.now()}`);
  form.append('stack', 'Everything');
  form.append('bio', 'Opens the conference.');
  form.append('picture', new Blob([png], { type: 'image/png' }), 'me.png');
  const signed = await fetch(`${url}/api/speakersadd`, { method: 'POST', body: form });
  const { speaker } = (await signed.json()) as { speaker: { _id: string } };
  const questionIds: string[] = [];
  for (let i = 0; i < QUESTIONS; i++) {
    const asked = await fetch(`${url}/questions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        speakerId: speaker._id,
        question: `Keynote question ${i}: what comes next?`,
        askerUsername: `asker-${i}`,
      }),
    });
    questionIds.push(((await asked.json()) as { _id: string })._id);
  }
  const tokens: string[] = [];
  for (let i = 0; i < VOTERS; i += 50) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(50, VOTERS - i) }, async (_, j) => {
        const joined = await fetch(`${url}/api/attendees`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: `voter-${i + j}` }),
        });
        return ((await joined.json()) as { token: string }).token;
      }),
    );
    tokens.push(...batch);
  }
  return { url, speakerId: speaker._id, questionIds, tokens };
}

/**
 * 1,000 attendees voting across 50 questions within a minute while 1,000 sockets watch the
 * speaker's room; beside bare node:http + socket.io counting each vote in memory and sending
 * every change at once.
 */
export async function votingRoom(): Promise<Row[]> {
  const { server } = await seededServer({ memories: 0, speakers: 200, questions: 20_000 });
  const reference = await startConferenceReference({});
  try {
    const target = await prepare(server.url);
    const app = await measure(target);
    const ref = await measure({
      url: reference.url,
      speakerId: target.speakerId,
      questionIds: target.questionIds,
      tokens: target.tokens,
    });
    const counted = await fetch(
      `${server.url}/api/questions/realtime?speakerId=${target.speakerId}&limit=200`,
    );
    const stored = ((await counted.json()) as { votes: number }[]).reduce(
      (sum, q) => sum + q.votes,
      0,
    );
    const label = `${app.votes} votes by ${VOTERS} attendees on ${QUESTIONS} questions in ${fmt(app.seconds, 0)} s, ${WATCHERS} sockets watching`;
    return [
      {
        name: `${label}: vote p99 ms (errors: ${app.errors})`,
        value: fmt(app.voteP99, 1),
        reference: `${fmt(ref.voteP99, 1)} bare node:http (errors: ${ref.errors})`,
        ratio: fmt(app.voteP99 / ref.voteP99, 2),
        target: '< 100 ms',
        met: app.voteP99 < 100 && app.errors === 0,
      },
      {
        name: 'vote median ms',
        value: fmt(app.voteP50, 1),
        reference: `${fmt(ref.voteP50, 1)} bare node:http`,
        ratio: fmt(app.voteP50 / ref.voteP50, 2),
        target: '',
        met: null,
      },
      {
        name: `questionUpdated delivered p99 ms after the vote (missed: ${app.missed})`,
        value: fmt(app.deliveryP99, 1),
        reference: `${fmt(ref.deliveryP99, 1)} bare socket.io, no coalescing (missed: ${ref.missed})`,
        ratio: fmt(app.deliveryP99 / ref.deliveryP99, 2),
        target: '< 250 ms',
        met: app.deliveryP99 < 250 && app.missed === 0,
      },
      {
        name: 'questionUpdated events per socket (coalesced)',
        value: fmt(app.eventsPerSocket, 0),
        reference: `${fmt(ref.eventsPerSocket, 0)} one per vote`,
        ratio: fmt(app.eventsPerSocket / ref.eventsPerSocket, 2),
        target: '',
        met: null,
      },
      {
        name: 'votes counted in the database',
        value: fmt(stored, 0),
        reference: `${fmt(app.votes, 0)} answered 200`,
        ratio: fmt(stored / app.votes, 2),
        target: 'equal',
        met: stored === app.votes,
      },
    ];
  } finally {
    await reference.stop();
    await server.stop();
  }
}
