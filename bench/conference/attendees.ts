// The load generator of the conference profile, run as its own process (forked by
// bench/conference/run-profile.ts): N attendees, each with the polls of the app's own client and a
// socket connection (held by bench/conference/attendee-sockets.ts, a process of its own), plus the
// audience's memory posts and questions. Reports figures per window to the parent over IPC.
import { fork } from 'node:child_process';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { Pool } from 'undici';
import { QUESTIONS_POLL_OVERLAP_MS } from '../../src/shared/qa-constants.ts';
import {
  type AttendeesJob,
  type GeneratorMessage,
  type LoadFigures,
  PROFILE,
  type SocketCounters,
  type SocketsJob,
} from './profile.ts';

/** Latencies in 0.05 ms buckets up to 60 s: constant memory however long the run. */
class Histogram {
  static readonly RESOLUTION = 0.05;
  readonly #counts = new Uint32Array(Math.ceil(60_000 / Histogram.RESOLUTION) + 1);
  count = 0;
  max = 0;

  add(ms: number): void {
    const bucket = Math.min(this.#counts.length - 1, Math.round(ms / Histogram.RESOLUTION));
    this.#counts[bucket] = (this.#counts[bucket] ?? 0) + 1;
    this.count++;
    if (ms > this.max) this.max = ms;
  }

  percentile(p: number): number {
    if (this.count === 0) return 0;
    const rank = Math.ceil((p / 100) * this.count);
    let seen = 0;
    for (let i = 0; i < this.#counts.length; i++) {
      seen += this.#counts[i] ?? 0;
      if (seen >= rank) return i * Histogram.RESOLUTION;
    }
    return this.max;
  }
}

const NO_SOCKETS: SocketCounters = { open: 0, connectErrors: 0, refused: 0, drops: 0, events: 0 };

class Window {
  readonly started = performance.now();
  readonly latencies = new Histogram();
  readonly statuses: Record<string, number> = {};
  errors = 0;

  /** `sockets`: the sockets' counters when the window starts. */
  constructor(readonly sockets: SocketCounters = NO_SOCKETS) {}

  record(ms: number, status: number): void {
    this.latencies.add(ms);
    this.statuses[status] = (this.statuses[status] ?? 0) + 1;
    if (!((status >= 200 && status < 300) || status === 304)) this.errors++;
  }

  /** `sockets`: the sockets' counters now; failed and dropped sockets count as errors. */
  figures(sockets: SocketCounters, lagP99: number): LoadFigures {
    const seconds = (performance.now() - this.started) / 1000;
    const socketErrors =
      sockets.connectErrors + sockets.drops - this.sockets.connectErrors - this.sockets.drops;
    const requests = this.latencies.count;
    return {
      seconds,
      requests,
      requestsPerSecond: requests / seconds,
      p50: this.latencies.percentile(50),
      p95: this.latencies.percentile(95),
      p99: this.latencies.percentile(99),
      max: this.latencies.max,
      errors: this.errors + socketErrors,
      statuses: this.statuses,
      socketEvents: sockets.events - this.sockets.events,
      sockets: sockets.open,
      socketsRefused: sockets.refused - this.sockets.refused,
      generatorLagP99: lagP99,
    };
  }
}

interface Attendee {
  galleryTag?: string | undefined;
  speakersTag?: string | undefined;
  /** The speaker whose questions this attendee follows (half of them). */
  speakerId?: string | undefined;
  questionsPath?: string | undefined;
  questionsTag?: string | undefined;
}

/** What a browser sends with every request that matters here. */
const BROWSER_HEADERS = { 'accept-encoding': 'gzip, deflate, br' };

/** A body as the browser would see it, whichever encoding the server chose. */
function decode(bytes: Buffer, encoding: string | string[] | undefined): string {
  if (encoding === 'br') return zlib.brotliDecompressSync(bytes).toString();
  if (encoding === 'gzip') return zlib.gunzipSync(bytes).toString();
  if (encoding === 'deflate') return zlib.inflateSync(bytes).toString();
  return bytes.toString();
}

const send = (message: GeneratorMessage) => process.send?.(message);

/**
 * The same sequence of choices in every run (mulberry32, seeded by `BENCH_SEED`): the moments of
 * the posts and votes, who follows whom and what is voted on. A memory post makes every attendee
 * fetch the gallery again, so runs with different numbers of posts in their window were not
 * comparable; with one seed, two builds face the same conference.
 */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const seed = Number(process.env.BENCH_SEED ?? 1);
/**
 * One sequence per kind of choice. Some choices are made at moments that vary from run to run
 * (a question seen replaces another as answers arrive): drawn from one shared sequence, they
 * shifted every later draw, and with them the moments of the posts.
 */
const random = {
  /** Made in a fixed order before and during arrival: who follows whom, each poll's phase. */
  audience: seededRandom(seed),
  /** The gaps between posts, one sequence per kind of write. */
  memoryPosts: seededRandom(seed + 0x9e3779b9),
  questionPosts: seededRandom(seed + 2 * 0x9e3779b9),
  votePosts: seededRandom(seed + 3 * 0x9e3779b9),
  /** What is voted on, and which seen questions are kept for it. */
  votes: seededRandom(seed + 4 * 0x9e3779b9),
  /** The ceiling's mix of requests. */
  mix: seededRandom(seed + 5 * 0x9e3779b9),
  /** The gaps between poll answers, and which option each picks. */
  pollPosts: seededRandom(seed + 6 * 0x9e3779b9),
  polls: seededRandom(seed + 7 * 0x9e3779b9),
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function run(job: AttendeesJob): Promise<void> {
  const url = new URL(job.url);
  const pool = new Pool(url.origin, {
    connections: job.mode === 'ceiling' ? job.concurrency : 256,
    pipelining: 1,
    keepAliveTimeout: 60_000,
  });
  const names = job.namePrefix ?? '';
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  // The steady window and the whole run; errors while arriving count in the whole run.
  let window = new Window();
  const total = new Window();
  let measuring = false;
  const image = await sharp({
    create: { width: 640, height: 480, channels: 3, background: '#e8590c' },
  })
    .jpeg({ quality: 80 })
    .toBuffer();

  const attendees: Attendee[] = Array.from({ length: job.attendees }, (_, i) => ({
    speakerId:
      i % Math.round(1 / PROFILE.questionsShare) === 0
        ? job.speakerIds[Math.floor(random.audience() * job.speakerIds.length)]
        : undefined,
  }));

  function record(start: number, status: number): void {
    const ms = performance.now() - start;
    total.record(ms, status);
    if (measuring) window.record(ms, status);
  }
  function fail(): void {
    total.errors++;
    if (measuring) window.errors++;
  }

  /** A conditional GET, as the browser's HTTP cache makes it; answers the body of a 200. */
  async function get(path: string, tag: string | undefined, readBody: boolean) {
    const start = performance.now();
    try {
      const response = await pool.request({
        method: 'GET',
        path,
        headers: tag ? { ...BROWSER_HEADERS, 'if-none-match': tag } : BROWSER_HEADERS,
      });
      const body =
        readBody && response.statusCode === 200
          ? decode(
              Buffer.from(await response.body.arrayBuffer()),
              response.headers['content-encoding'],
            )
          : '';
      if (!readBody || response.statusCode !== 200) await response.body.dump();
      record(start, response.statusCode);
      const etag = response.headers.etag;
      return {
        status: response.statusCode,
        tag: typeof etag === 'string' ? etag : undefined,
        body,
      };
    } catch {
      fail();
      return undefined;
    }
  }

  async function pollGallery(a: Attendee) {
    const answer = await get('/api/memory?limit=60', a.galleryTag, false);
    if (answer?.status === 200) a.galleryTag = answer.tag;
  }
  async function pollSpeakers(a: Attendee) {
    const answer = await get('/speakers', a.speakersTag, false);
    if (answer?.status === 200) a.speakersTag = answer.tag;
  }
  /** As the Q&A room does: the latest page first, then only what is newer than the newest held. */
  async function pollQuestions(a: Attendee) {
    const path = a.questionsPath ?? `/api/questions/realtime?speakerId=${a.speakerId}&limit=200`;
    const answer = await get(path, a.questionsTag, true);
    if (answer?.status !== 200) return;
    const list = JSON.parse(answer.body) as { _id: string; createdAt: string }[];
    learnQuestions(list);
    const newest = list.at(-1)?.createdAt;
    const next = newest
      ? `/api/questions/realtime?speakerId=${a.speakerId}&since=${encodeURIComponent(
          new Date(Date.parse(newest) - QUESTIONS_POLL_OVERLAP_MS).toISOString(),
        )}&limit=200`
      : path;
    a.questionsTag = next === path ? answer.tag : undefined;
    a.questionsPath = next;
  }

  async function post(path: string, headers: Record<string, string>, body: Buffer | string) {
    const start = performance.now();
    try {
      const response = await pool.request({ method: 'POST', path, headers, body });
      await response.body.dump();
      record(start, response.statusCode);
    } catch {
      fail();
    }
  }
  let posted = 0;
  function postMemory() {
    const boundary = `----confab${(posted++).toString(16)}${Math.random().toString(16).slice(2)}`;
    const parts = [
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="caption"\r\n\r\nThe keynote, from row ${posted}\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="username"\r\n\r\n${names}attendee-${posted}\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="photo.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
      ),
      image,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ];
    return post(
      '/api/memories',
      { ...BROWSER_HEADERS, 'content-type': `multipart/form-data; boundary=${boundary}` },
      Buffer.concat(parts),
    );
  }
  let asked = 0;
  // Each run asks its own questions: the same text from the same asker to the same speaker
  // within 10 minutes is refused as a repeat (409), and runs follow each other on one server.
  const run = Math.random().toString(36).slice(2, 8);
  function postQuestion() {
    asked++;
    const speakerId = job.speakerIds[asked % job.speakerIds.length] ?? '';
    return post(
      '/questions',
      { ...BROWSER_HEADERS, 'content-type': 'application/json' },
      JSON.stringify({
        speakerId,
        speakerName: 'Speaker',
        question: `Question ${asked} of run ${run}: how does this scale to a whole conference?`,
        askerUsername: `${names}attendee-${asked % job.attendees}`,
      }),
    );
  }

  // Votes: on the questions the followers have seen, by attendees who joined for a token.
  const seenQuestions: string[] = [];
  function learnQuestions(list: readonly { _id: string }[]) {
    for (const { _id } of list) {
      if (seenQuestions.length < 2_000) seenQuestions.push(_id);
      else seenQuestions[Math.floor(random.votes() * seenQuestions.length)] = _id;
    }
  }
  const voterTokens: (string | undefined)[] = [];
  async function joinVoter(voter: number): Promise<string | undefined> {
    const start = performance.now();
    try {
      const response = await pool.request({
        method: 'POST',
        path: '/api/attendees',
        headers: { ...BROWSER_HEADERS, 'content-type': 'application/json' },
        body: JSON.stringify({ username: `${names}voter-${voter}` }),
      });
      const body = (await response.body.json()) as { token?: string };
      record(start, response.statusCode);
      voterTokens[voter] = body.token;
      return body.token;
    } catch {
      fail();
      return undefined;
    }
  }
  let votes = 0;
  async function vote() {
    const id = seenQuestions[Math.floor(random.votes() * seenQuestions.length)];
    if (!id) return;
    const voter = votes++ % PROFILE.voters;
    const token = voterTokens[voter] ?? (await joinVoter(voter));
    if (!token) return;
    const start = performance.now();
    try {
      const response = await pool.request({
        method: 'PUT',
        path: `/api/questions/${id}/vote`,
        headers: { ...BROWSER_HEADERS, authorization: `Bearer ${token}` },
      });
      await response.body.dump();
      record(start, response.statusCode);
    } catch {
      fail();
    }
  }

  // Answers to the open poll, by the same voters: each one's later answer replaces the earlier.
  let pollAnswers = 0;
  async function answerPoll() {
    const voter = pollAnswers++ % PROFILE.voters;
    const token = voterTokens[voter] ?? (await joinVoter(voter));
    if (!token || !job.pollId) return;
    const start = performance.now();
    try {
      const response = await pool.request({
        method: 'PUT',
        path: `/api/polls/${job.pollId}/vote`,
        headers: {
          ...BROWSER_HEADERS,
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ optionIds: [String(1 + Math.floor(random.polls() * 4))] }),
      });
      await response.body.dump();
      record(start, response.statusCode);
    } catch {
      fail();
    }
  }

  const tasks: Tasks = {
    pollGallery,
    pollSpeakers,
    pollQuestions,
    postMemory,
    postQuestion,
    vote,
  };
  if (job.mode === 'ceiling') {
    await warmUp(job, attendees, tasks);
    measuring = true;
    window = new Window();
    lag.reset();
    const deadline = performance.now() + job.seconds * 1000;
    let served = 0;
    await Promise.all(
      Array.from({ length: job.concurrency }, async () => {
        while (performance.now() < deadline) {
          await mixed(job, attendees, served++, tasks);
        }
      }),
    );
    send({ type: 'done', figures: window.figures(NO_SOCKETS, lag.percentile(99) / 1e6) });
    await pool.close();
    return;
  }

  // The profile: periodic tasks on timing wheels of 10 ms slots, filled as attendees arrive.
  const TICK = 10;
  const t0 = performance.now();
  const wheels = [
    { period: PROFILE.galleryPollMs, task: pollGallery },
    { period: PROFILE.speakerListPollMs, task: pollSpeakers },
    { period: PROFILE.questionsPollMs, task: pollQuestions },
  ].map((wheel) => ({
    ...wheel,
    slots: Array.from({ length: wheel.period / TICK }, () => [] as number[]),
    done: -1,
  }));
  const writes = [
    { every: 60_000 / PROFILE.memoryPostsPerMinute, task: postMemory, gaps: random.memoryPosts },
    { every: 60_000 / PROFILE.questionsPerMinute, task: postQuestion, gaps: random.questionPosts },
    { every: 60_000 / PROFILE.votesPerMinute, task: vote, gaps: random.votePosts },
    ...(job.pollId
      ? [
          {
            every: 60_000 / PROFILE.pollAnswersPerMinute,
            task: answerPoll,
            gaps: random.pollPosts,
          },
        ]
      : []),
  ]
    .map((write) => ({ ...write, next: 0 }))
    .filter((write) => Number.isFinite(write.every));
  let running = true;
  let arrived = 0;

  // The sockets arrive at the same rate in their own process, which reports its counters.
  const socketsProcess = fork(path.join(import.meta.dirname, 'attendee-sockets.ts'), [], {
    execArgv: ['--import', 'tsx', '--max-old-space-size=8192'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let sockets = NO_SOCKETS;
  socketsProcess.on('message', (counters: SocketCounters) => {
    sockets = counters;
  });
  socketsProcess.send({
    url: job.url,
    arrivalPerSecond: job.arrivalPerSecond,
    watching: attendees.map((a) => a.speakerId ?? null),
  } satisfies SocketsJob);

  const joins = (i: number, wheel: number) =>
    wheel === 0 ||
    (wheel === 1 && i % Math.round(1 / PROFILE.speakerListShare) === 0) ||
    (wheel === 2 && attendees[i]?.speakerId !== undefined);

  function arrive(i: number): void {
    const attendee = attendees[i];
    if (!attendee) return;
    // The first poll on arrival, then at a phase of its own: attendees who arrive together
    // do not poll together for the rest of the day.
    wheels.forEach((wheel, w) => {
      if (!joins(i, w)) return;
      wheel.slots[Math.floor(random.audience() * wheel.slots.length)]?.push(i);
      void wheel.task(attendee);
    });
  }

  const arrivalMs = 1000 / job.arrivalPerSecond;
  let lastReport = performance.now();
  const steadyAt = () => t0 + job.attendees * arrivalMs + 10_000;
  let endAt = Number.POSITIVE_INFINITY;
  while (running) {
    const now = performance.now();
    const elapsed = now - t0;
    while (arrived < job.attendees && arrived * arrivalMs <= elapsed) arrive(arrived++);
    for (const wheel of wheels) {
      const current = Math.floor(elapsed / TICK);
      for (
        let tick = Math.max(wheel.done + 1, current - wheel.slots.length + 1);
        tick <= current;
        tick++
      ) {
        for (const i of wheel.slots[tick % wheel.slots.length] ?? []) {
          const attendee = attendees[i];
          if (attendee) void wheel.task(attendee);
        }
      }
      wheel.done = current;
    }
    if (arrived === job.attendees) {
      for (const write of writes) {
        if (write.next === 0) write.next = now;
        while (write.next <= now) {
          void write.task();
          // People post at random moments: exponential gaps with the profile's mean.
          write.next += -Math.log(1 - write.gaps()) * write.every;
        }
      }
    }
    if (!measuring && arrived === job.attendees && now >= steadyAt()) {
      send({
        type: 'arrived',
        sockets: sockets.open,
        errors: sockets.connectErrors + sockets.drops,
        seconds: (now - t0) / 1000,
      });
      measuring = true;
      window = new Window(sockets);
      lag.reset();
      lastReport = now;
      endAt = now + job.seconds * 1000;
    }
    if (measuring && now - lastReport >= job.windowSeconds * 1000) {
      send({ type: 'window', figures: window.figures(sockets, lag.percentile(99) / 1e6) });
      window = new Window(sockets);
      lag.reset();
      lastReport = now;
    }
    if (now >= endAt) running = false;
    await sleep(TICK / 2);
  }
  if (window.latencies.count > 0 && performance.now() - lastReport > 1000) {
    send({ type: 'window', figures: window.figures(sockets, lag.percentile(99) / 1e6) });
  }
  // The last counters come as the sockets' process closes them (open: those still open then).
  const open = sockets.open;
  const closed = new Promise<void>((resolve) => socketsProcess.once('exit', () => resolve()));
  socketsProcess.send('close');
  await closed;
  send({ type: 'done', figures: total.figures({ ...sockets, open }, 0) });
  await pool.close();
}

interface Tasks {
  pollGallery: (a: Attendee) => Promise<void>;
  pollSpeakers: (a: Attendee) => Promise<void>;
  pollQuestions: (a: Attendee) => Promise<void>;
  postMemory: () => Promise<void>;
  postQuestion: () => Promise<void>;
  vote: () => Promise<void>;
}

/** Rates per attendee-second of the profile, which the ceiling mix keeps in proportion. */
function mixWeights(attendees: number) {
  const gallery = 1000 / PROFILE.galleryPollMs;
  const speakers = (PROFILE.speakerListShare * 1000) / PROFILE.speakerListPollMs;
  const questions = (PROFILE.questionsShare * 1000) / PROFILE.questionsPollMs;
  const asks = PROFILE.questionsPerMinute / 60 / attendees;
  const memories = PROFILE.memoryPostsPerMinute / 60 / attendees;
  const votes = PROFILE.votesPerMinute / 60 / attendees;
  const sum = gallery + speakers + questions + asks + memories + votes;
  return {
    gallery: gallery / sum,
    speakers: speakers / sum,
    questions: questions / sum,
    asks: asks / sum,
    votes: votes / sum,
  };
}

/** One request of the mix, for a random attendee (whose cached tags it uses). */
function mixed(job: AttendeesJob, attendees: Attendee[], n: number, tasks: Tasks): Promise<void> {
  const w = mixWeights(job.attendees);
  const attendee = attendees[n % attendees.length] ?? {};
  const r = random.mix();
  if (r < w.gallery) return tasks.pollGallery(attendee);
  if (r < w.gallery + w.speakers) return tasks.pollSpeakers(attendee);
  if (r < w.gallery + w.speakers + w.questions) {
    attendee.speakerId ??= job.speakerIds[n % job.speakerIds.length];
    return tasks.pollQuestions(attendee);
  }
  if (r < w.gallery + w.speakers + w.questions + w.asks) return tasks.postQuestion();
  if (r < w.gallery + w.speakers + w.questions + w.asks + w.votes) return tasks.vote();
  return tasks.postMemory();
}

/** Before the ceiling is measured, every attendee has loaded the app once (their tags are warm). */
async function warmUp(job: AttendeesJob, attendees: Attendee[], tasks: Tasks): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: job.concurrency }, async () => {
      while (next < attendees.length) {
        const attendee = attendees[next++];
        if (!attendee) continue;
        await tasks.pollGallery(attendee);
        await tasks.pollSpeakers(attendee);
        attendee.speakerId ??= job.speakerIds[next % job.speakerIds.length];
        await tasks.pollQuestions(attendee);
      }
    }),
  );
}

process.once('message', (job: AttendeesJob) => {
  run(job)
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    })
    .finally(() => process.disconnect());
});
