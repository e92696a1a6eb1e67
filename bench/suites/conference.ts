import { runProfile, type ProfileResult } from '../conference/run-profile.ts';
import { answersOf, startAppServer, startConferenceReference } from '../lib/processes.ts';
import { type Row, fmt, mb } from '../lib/report.ts';
import { seededDataDir } from './gallery.ts';

/** The statuses of failed answers, e.g. " (503: 12)", to tell what failed. */
const errorStatuses = (statuses: Record<string, number>): string => {
  const failed = Object.entries(statuses).filter(
    ([code]) => !(code.startsWith('2') || code === '304'),
  );
  return failed.length === 0 ? '' : ` (${failed.map(([c, n]) => `${c}: ${n}`).join(', ')})`;
};

/** Attendee counts of the profile; `BENCH_ATTENDEES=1000,5000` runs fewer, `0` only the ceiling. */
const AUDIENCES = (process.env.BENCH_ATTENDEES ?? '1000,5000,10000')
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
/** Seconds of steady load per audience (after arrival); `BENCH_PROFILE_SECONDS` shortens it. */
const SECONDS = Number(process.env.BENCH_PROFILE_SECONDS ?? 60);
const ARRIVALS_PER_SECOND = 500;
const CEILING_SECONDS = 15;
const CEILING_CONCURRENCY = 64;

const latency = (r: ProfileResult) =>
  `${fmt(r.steady.load.requestsPerSecond)} req/s, p50/p95/p99 ${fmt(r.steady.load.p50, 1)}/${fmt(r.steady.load.p95, 1)}/${fmt(r.steady.load.p99, 1)} ms, ${r.total.errors} errors, ${r.steady.load.sockets} sockets, generator lag p99 ${fmt(r.steady.load.generatorLagP99, 1)} ms`;
export const resources = (r: ProfileResult) =>
  `CPU ${fmt(r.steady.server.cpuPercent)}% of a core, RSS ${mb(r.steady.server.rss)} (peak ${mb(r.steady.server.peakRss)})`;

/** The lists the conference profile polls, as the app answers them, for its reference. */
export const conferenceLists = (url: string, speakerId: string) =>
  answersOf(url, [
    ['/api/memory', '/api/memory?limit=60'],
    ['/speakers', '/speakers'],
    ['/api/questions/realtime', `/api/questions/realtime?speakerId=${speakerId}&limit=200`],
  ]);

/**
 * The conference profile for N attendees (bench/conference/profile.ts) against the app seeded
 * with 5,000 memories, 200 speakers and 20,000 questions, and against a bare node:http +
 * socket.io server answering the same lists; then the same mix as fast as each takes it.
 */
export async function conferenceProfile(): Promise<Row[]> {
  const { dataDir, seeded, cleanup } = await seededDataDir({
    memories: 5000,
    speakers: 200,
    questions: 20_000,
  });
  const rows: Row[] = [];
  try {
    // The reference answers the app's own lists, byte for byte.
    const probe = await startAppServer({ DATA_DIR: dataDir });
    const lists = await conferenceLists(probe.url, seeded.speakerIds[0] ?? '').finally(() =>
      probe.stop(),
    );
    const job = { speakerIds: seeded.speakerIds, arrivalPerSecond: ARRIVALS_PER_SECOND };

    for (const attendees of AUDIENCES) {
      const profile = {
        ...job,
        attendees,
        seconds: SECONDS,
        windowSeconds: SECONDS,
        mode: 'profile' as const,
        concurrency: 0,
      };
      const reference = await startConferenceReference(lists);
      const ref = await runProfile(reference, profile).finally(() => reference.stop());
      const server = await startAppServer({ DATA_DIR: dataDir });
      const app = await runProfile(server, profile).finally(() => server.stop());
      const n = fmt(attendees);
      const met = app.steady.load.p99 < 100 && app.total.errors === 0;
      rows.push(
        {
          name: `${n} attendees: served, latency, errors`,
          value: latency(app),
          reference: `${latency(ref)} (bare node:http + socket.io)`,
          ratio: `p99 ×${fmt(app.steady.load.p99 / Math.max(0.1, ref.steady.load.p99), 1)}`,
          target: 'p99 < 100 ms, no errors',
          met: attendees === 10_000 ? met : null,
        },
        {
          name: `${n} attendees: server CPU and memory`,
          value: resources(app),
          reference: resources(ref),
          ratio: `RSS ×${fmt(app.steady.server.rss / ref.steady.server.rss, 1)}`,
          target: 'informational',
          met: null,
        },
      );
    }

    const ceiling = {
      ...job,
      attendees: 10_000,
      seconds: CEILING_SECONDS,
      windowSeconds: CEILING_SECONDS,
      mode: 'ceiling' as const,
      concurrency: CEILING_CONCURRENCY,
    };
    const reference = await startConferenceReference(lists);
    const ref = await runProfile(reference, ceiling).finally(() => reference.stop());
    const server = await startAppServer({ DATA_DIR: dataDir });
    const app = await runProfile(server, ceiling).finally(() => server.stop());
    const ratio = app.total.requestsPerSecond / ref.total.requestsPerSecond;
    const describe = (r: ProfileResult) =>
      `${fmt(r.total.requestsPerSecond)} req/s, p99 ${fmt(r.total.p99, 1)} ms, ${r.total.errors} errors${errorStatuses(r.total.statuses)}`;
    rows.push({
      name: `ceiling: the profile's mix as fast as possible (${CEILING_CONCURRENCY} connections)`,
      value: describe(app),
      reference: `${describe(ref)} (bare node:http, fixed answers)`,
      ratio: fmt(ratio, 2),
      target: '>= 0.50',
      met: ratio >= 0.5 && app.total.errors === 0,
    });
    return rows;
  } finally {
    await cleanup();
  }
}
