// `npx tsx bench/alternate.ts`: the conference profile (10,000 attendees, 20 s of steady load)
// against two builds in turn, round after round, and the median of each build's figures.
// BENCH_BEFORE names another built checkout (`npm run build` in it), the build to compare
// with; this checkout's build is the other. BENCH_ROUNDS sets the rounds (5). Both builds face
// the same generator (this checkout's), the same seeded rows, a fresh copy of them each run
// (a run's posts and votes would grow the next one's lists), and the same seeded sequence of
// choices; the order within a round alternates, so drift in the machine's load falls on both.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runProfile } from './conference/run-profile.ts';
import { startAppServer } from './lib/processes.ts';
import { fmt } from './lib/report.ts';
import { seedSqlite } from './lib/seed.ts';
import { seedImage } from './suites/gallery.ts';

const before = process.env.BENCH_BEFORE;
if (!before) {
  console.error('BENCH_BEFORE=/path/to/another/built/checkout names the build to compare with.');
  process.exit(2);
}
const builds = [
  { name: 'before', dir: path.resolve(before) },
  { name: 'now', dir: process.cwd() },
];
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ATTENDEES = 10_000;
const SECONDS = 20;

interface Figures {
  p99: number;
  p95: number;
  cpu: number;
  errors: number;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

const image = await seedImage();
const seeded = new Map<string, { dataDir: string; speakerIds: string[] }>();
const results = new Map<string, Figures[]>();
try {
  // Each build migrates its own data directory (started once, stopped), then gets the rows.
  for (const build of builds) {
    process.chdir(build.dir);
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'confab-alternate-'));
    const first = await startAppServer({ DATA_DIR: dataDir });
    await first.stop();
    const rows = seedSqlite(dataDir, { memories: 5000, speakers: 200, questions: 20_000 }, image);
    seeded.set(build.name, { dataDir, speakerIds: rows.speakerIds });
  }
  for (let round = 1; round <= ROUNDS; round++) {
    for (const build of round % 2 === 1 ? builds : [...builds].reverse()) {
      const rows = seeded.get(build.name);
      if (!rows) continue;
      process.chdir(build.dir);
      const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'confab-run-'));
      await fs.cp(rows.dataDir, dataDir, { recursive: true });
      const server = await startAppServer({ DATA_DIR: dataDir });
      const run = await runProfile(server, {
        speakerIds: rows.speakerIds,
        arrivalPerSecond: 500,
        attendees: ATTENDEES,
        seconds: SECONDS,
        windowSeconds: SECONDS,
        mode: 'profile',
        concurrency: 0,
      }).finally(() => server.stop());
      await fs.rm(dataDir, { recursive: true, force: true });
      const figures = {
        p99: run.steady.load.p99,
        p95: run.steady.load.p95,
        cpu: run.steady.server.cpuPercent,
        errors: run.total.errors,
      };
      results.set(build.name, [...(results.get(build.name) ?? []), figures]);
      console.log(
        `round ${round}, ${build.name}: p99 ${fmt(figures.p99, 1)} ms, p95 ${fmt(figures.p95, 1)} ms, ` +
          `server CPU ${fmt(figures.cpu)}% of a core, ${figures.errors} errors, load ${fmt(os.loadavg()[0] ?? 0, 1)}`,
      );
    }
  }
  for (const build of builds) {
    const runs = results.get(build.name) ?? [];
    console.log(
      `${build.name}: p99 per run ${runs.map((r) => fmt(r.p99, 1)).join(', ')} ms; ` +
        `median p99 ${fmt(median(runs.map((r) => r.p99)), 1)} ms, ` +
        `p95 ${fmt(median(runs.map((r) => r.p95)), 1)} ms, ` +
        `server CPU ${fmt(median(runs.map((r) => r.cpu)))}% of a core; ` +
        `${runs.reduce((sum, r) => sum + r.errors, 0)} errors`,
    );
  }
} finally {
  for (const rows of seeded.values()) await fs.rm(rows.dataDir, { recursive: true, force: true });
}
