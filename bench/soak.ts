// `npm run soak`: the conference profile of the benchmark for 30 minutes against the production
// server (seeded as in `npm run bench`). Prints resident memory and latency every minute and
// fails when memory keeps growing, or when any request fails.
// SOAK_MINUTES and SOAK_ATTENDEES change the length and the audience.
import { runProfile } from './conference/run-profile.ts';
import { startAppServer } from './lib/processes.ts';
import { fmt, mb } from './lib/report.ts';
import { seededDataDir } from './suites/gallery.ts';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 30);
const ATTENDEES = Number(process.env.SOAK_ATTENDEES ?? 5000);
/** Minutes while caches fill and the heap finds its size; growth is judged after them. */
const WARM_UP = Math.min(5, Math.floor(MINUTES / 3));
/** Growth that counts as a leak: this much per minute, sustained after the warm-up. */
const MAX_GROWTH_PER_MINUTE = 1024 * 1024;

/** Least-squares slope of y over x. */
function slope(points: [number, number][]): number {
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const num = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const den = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}

const { dataDir, seeded, cleanup } = await seededDataDir({
  memories: 5000,
  speakers: 200,
  questions: 20_000,
});
const server = await startAppServer({ DATA_DIR: dataDir });
console.log(`Soak: ${fmt(ATTENDEES)} attendees for ${MINUTES} minutes against ${server.url}`);
console.log('| minute | req/s | p50 ms | p99 ms | errors | sockets | server CPU | server RSS |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
let minute = 0;
const rss: [number, number][] = [];
let failed = false;
try {
  const result = await runProfile(
    server,
    {
      attendees: ATTENDEES,
      arrivalPerSecond: 500,
      seconds: MINUTES * 60,
      windowSeconds: 60,
      speakerIds: seeded.speakerIds,
      mode: 'profile',
      concurrency: 0,
    },
    (load, figures) => {
      minute++;
      rss.push([minute, figures.rss]);
      console.log(
        `| ${minute} | ${fmt(load.requestsPerSecond)} | ${fmt(load.p50, 1)} | ${fmt(load.p99, 1)} | ${load.errors} | ${load.sockets} | ${fmt(figures.cpuPercent)}% | ${mb(figures.rss)} |`,
      );
    },
  );
  const after = rss.filter(([m]) => m > WARM_UP);
  const growth = after.length >= 3 ? slope(after) : 0;
  const first = after[0]?.[1] ?? 0;
  const last = after.at(-1)?.[1] ?? 0;
  console.log(
    `\nAfter the ${WARM_UP}-minute warm-up: RSS ${mb(first)} → ${mb(last)}, trend ${mb(growth)} a minute (limit ${mb(MAX_GROWTH_PER_MINUTE)}); errors ${result.total.errors} (arrival included).`,
  );
  if (growth > MAX_GROWTH_PER_MINUTE) {
    console.log('FAIL: resident memory keeps growing.');
    failed = true;
  }
  if (result.total.errors > 0) {
    console.log('FAIL: some requests or sockets failed.');
    failed = true;
  }
  if (!failed) console.log('PASS: memory is flat and nothing failed.');
} finally {
  await server.stop();
  await cleanup();
}
process.exit(failed ? 1 : 0);
