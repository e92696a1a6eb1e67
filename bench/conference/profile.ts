// The conference profile shared by the load generator (bench/conference/attendees.ts), the
// benchmark suite and the soak run: what N attendees do, and the figures a run reports.

/** What every simulated attendee does, as the app's own client does it. */
export const PROFILE = {
  /** Every attendee polls the gallery's first page (GET /api/memory?limit=60) every 3 s. */
  galleryPollMs: 3_000,
  /** A third of them have the speaker dropdown open: GET /speakers every 3 s. */
  speakerListShare: 1 / 3,
  speakerListPollMs: 3_000,
  /** Half of them follow one speaker's questions: GET /api/questions/realtime every 5 s. */
  questionsShare: 1 / 2,
  questionsPollMs: 5_000,
  /** Across the whole audience: memory posts (a small image each) and questions a minute. */
  memoryPostsPerMinute: 20,
  questionsPerMinute: 200,
  /**
   * Upvotes a minute across the audience (PUT /api/questions/:id/vote with an attendee token),
   * on the questions the followers of a speaker see: one vote per attendee every ten minutes
   * or so in a room of 10,000, bursts included. `BENCH_VOTES_PER_MINUTE=0` runs the profile as
   * it was before the room voted, to compare with builds that had no voting.
   */
  votesPerMinute: Number(process.env.BENCH_VOTES_PER_MINUTE ?? 1_000),
  /** Attendees who vote, each joining (POST /api/attendees) before their first vote. */
  voters: 2_000,
  /**
   * Answers a minute to the open poll across the audience (PUT /api/polls/:id/vote by the same
   * voters, a later answer replacing an earlier one), when the job names a poll.
   */
  pollAnswersPerMinute: 1_000,
} as const;

/** The generator's job, sent by the parent process. */
export interface AttendeesJob {
  url: string;
  attendees: number;
  /** Socket connections opened per second while the audience arrives. */
  arrivalPerSecond: number;
  /** Seconds of steady load after everybody has arrived and settled. */
  seconds: number;
  /** Figures are reported for every window of this many seconds. */
  windowSeconds: number;
  speakerIds: string[];
  /** "profile": the timed conference; "ceiling": the same mix as fast as the server takes it. */
  mode: 'profile' | 'ceiling';
  /** For "ceiling": requests in flight at once. */
  concurrency: number;
  /** An open poll the audience answers (PROFILE.pollAnswersPerMinute); none when unset. */
  pollId?: string | undefined;
  /**
   * Put before every name this generator makes up (voters, askers, posters): several
   * generators loading one audience on several instances do not share names.
   */
  namePrefix?: string | undefined;
}

/** The job of the sockets' process (bench/conference/attendee-sockets.ts). */
export interface SocketsJob {
  url: string;
  arrivalPerSecond: number;
  /** Per attendee, the speaker whose room it watches (or null). */
  watching: (string | null)[];
}

/** What the sockets' process reports, every 100 ms and when it is told to close. */
export interface SocketCounters {
  /** Sockets connected now. */
  open: number;
  connectErrors: number;
  /** Of those, the connections the server refused with 503 (its connection cap). */
  refused: number;
  /** Sockets that disconnected before the run ended. */
  drops: number;
  /** Socket events received (memoryCreated, newQuestion, …). */
  events: number;
}

/** Figures of one window (or of the whole run). */
export interface LoadFigures {
  seconds: number;
  requests: number;
  requestsPerSecond: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** Answers that are neither 2xx nor 304, connection errors, and sockets that failed or dropped. */
  errors: number;
  statuses: Record<string, number>;
  /** Socket events received (memoryCreated, newQuestion, …). */
  socketEvents: number;
  sockets: number;
  /** Socket connections the server refused with 503 (counted in `errors` too). */
  socketsRefused: number;
  /** The generator's own event-loop delay p99 (ms): how much of the latency is the generator's. */
  generatorLagP99: number;
}

export type GeneratorMessage =
  | { type: 'arrived'; sockets: number; errors: number; seconds: number }
  | { type: 'window'; figures: LoadFigures }
  | { type: 'done'; figures: LoadFigures };
