import { fork } from 'node:child_process';
import path from 'node:path';
import type { BenchServer } from '../lib/processes.ts';
import type { AttendeesJob, GeneratorMessage, LoadFigures } from './profile.ts';

/** The server's side of a window: its CPU (share of one core) and resident memory. */
export interface ServerFigures {
  cpuPercent: number;
  rss: number;
  peakRss: number;
}

export interface ProfileResult {
  /** Until every attendee had arrived and settled. */
  arrival: { sockets: number; errors: number; seconds: number };
  /** The steady part, window by window. */
  windows: { load: LoadFigures; server: ServerFigures }[];
  /** The whole run, arrival included (errors, requests). */
  total: LoadFigures;
  /** The steady part as one window. */
  steady: { load: LoadFigures; server: ServerFigures };
}

/**
 * Runs the load generator (bench/conference/attendees.ts) in its own process against `server`,
 * sampling the server's CPU and resident memory for each window the generator reports.
 */
export async function runProfile(
  server: BenchServer,
  job: Omit<AttendeesJob, 'url'>,
  onWindow?: (load: LoadFigures, server: ServerFigures) => void,
): Promise<ProfileResult> {
  // BENCH_GENERATOR_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles the generator.
  const extraArgs = process.env.BENCH_GENERATOR_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = fork(path.join(import.meta.dirname, 'attendees.ts'), [], {
    execArgv: ['--import', 'tsx', '--max-old-space-size=8192', ...extraArgs],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let peakRss = await server.rss();
  let windowPeak = peakRss;
  const sampler = setInterval(() => {
    server
      .rss()
      .then((rss) => {
        peakRss = Math.max(peakRss, rss);
        windowPeak = Math.max(windowPeak, rss);
      })
      .catch(() => undefined);
  }, 250);
  let mark = { at: performance.now(), cpu: await server.cpuSeconds() };
  let steadyMark = mark;
  let arrival: ProfileResult['arrival'] | undefined;
  const windows: ProfileResult['windows'] = [];

  async function serverFigures(from: { at: number; cpu: number }, peak: number) {
    const at = performance.now();
    const cpu = await server.cpuSeconds();
    const rss = await server.rss();
    return {
      figures: {
        cpuPercent: ((cpu - from.cpu) / ((at - from.at) / 1000)) * 100,
        rss,
        peakRss: Math.max(peak, rss),
      },
      mark: { at, cpu },
    };
  }

  const total = await new Promise<LoadFigures>((resolve, reject) => {
    let chain = Promise.resolve();
    child.on('message', (message: GeneratorMessage) => {
      chain = chain.then(async () => {
        if (message.type === 'arrived') {
          arrival = { sockets: message.sockets, errors: message.errors, seconds: message.seconds };
          mark = { at: performance.now(), cpu: await server.cpuSeconds() };
          steadyMark = mark;
          windowPeak = await server.rss();
          peakRss = windowPeak;
        } else if (message.type === 'window') {
          const { figures, mark: next } = await serverFigures(mark, windowPeak);
          mark = next;
          windowPeak = figures.rss;
          windows.push({ load: message.figures, server: figures });
          onWindow?.(message.figures, figures);
        } else {
          resolve(message.figures);
        }
      });
    });
    child.once('exit', (code) => {
      void chain.then(() => reject(new Error(`the load generator exited with ${code}`)));
    });
    child.send({ ...job, url: server.url } satisfies AttendeesJob);
  });
  clearInterval(sampler);
  const { figures: steadyServer } = await serverFigures(steadyMark, peakRss);
  await new Promise((resolve) =>
    child.exitCode === null ? child.once('exit', resolve) : resolve(null),
  );
  return {
    arrival: arrival ?? { sockets: 0, errors: 0, seconds: 0 },
    windows,
    total,
    steady: { load: combine(windows.map((w) => w.load)), server: steadyServer },
  };
}

/** Several windows as one: sums, and the worst of each percentile (a conservative reading). */
function combine(windows: LoadFigures[]): LoadFigures {
  const seconds = windows.reduce((sum, w) => sum + w.seconds, 0);
  const requests = windows.reduce((sum, w) => sum + w.requests, 0);
  const statuses: Record<string, number> = {};
  for (const w of windows) {
    for (const [code, count] of Object.entries(w.statuses)) {
      statuses[code] = (statuses[code] ?? 0) + count;
    }
  }
  const worst = (key: 'p50' | 'p95' | 'p99' | 'max' | 'generatorLagP99') =>
    Math.max(0, ...windows.map((w) => w[key]));
  return {
    seconds,
    requests,
    requestsPerSecond: seconds > 0 ? requests / seconds : 0,
    p50: worst('p50'),
    p95: worst('p95'),
    p99: worst('p99'),
    max: worst('max'),
    errors: windows.reduce((sum, w) => sum + w.errors, 0),
    statuses,
    socketEvents: windows.reduce((sum, w) => sum + w.socketEvents, 0),
    sockets: Math.min(...windows.map((w) => w.sockets)),
    socketsRefused: windows.reduce((sum, w) => sum + w.socketsRefused, 0),
    generatorLagP99: worst('generatorLagP99'),
  };
}
