import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { runLoad } from '../lib/load.ts';
import { startAppServer, startReferenceServer } from '../lib/processes.ts';
import { type Row, fmt } from '../lib/report.ts';
import { type SeedCounts, type SeedMedia, seedSqlite } from '../lib/seed.ts';

/** A small real JPEG for seeded rows. */
export const seedImage = () =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: '#4c6ef5' } })
    .jpeg()
    .toBuffer();

/** A seeded, migrated data directory: start once to migrate, stop, seed. */
export async function seededDataDir(counts: SeedCounts, media?: SeedMedia) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'confab-bench-'));
  const first = await startAppServer({ DATA_DIR: dataDir });
  await first.stop();
  const seeded = seedSqlite(dataDir, counts, media ?? (await seedImage()));
  const cleanup = () => fs.rm(dataDir, { recursive: true, force: true });
  return { dataDir, seeded, cleanup };
}

/** A server on a seeded data directory, which it removes when it stops. */
export async function seededServer(counts: SeedCounts, media?: SeedMedia) {
  const { dataDir, seeded, cleanup } = await seededDataDir(counts, media);
  const started = await startAppServer({ DATA_DIR: dataDir });
  const server = {
    ...started,
    stop: async () => {
      await started.stop();
      await cleanup();
    },
  };
  return { server, seeded };
}

/** With 5,000 memories: a 304 gallery poll against a bare node:http 304, and the first page's size. */
export async function galleryPolls(): Promise<Row[]> {
  const { server } = await seededServer({ memories: 5000, speakers: 0, questions: 0 });
  try {
    const first = await fetch(`${server.url}/api/memory`);
    const body = await first.text();
    const etag = first.headers.get('etag') ?? '';
    const reference = await startReferenceServer({
      '/api/memory': { status: 304, headers: { etag }, body: '' },
    });
    try {
      const headers = { 'if-none-match': etag };
      // Each server is warmed up first, unmeasured: a poll is answered all day long, so it is
      // the steady rate that counts, not the seconds the code takes to be optimised.
      const measured = async (url: string) => {
        await runLoad({ url, headers, durationSeconds: 2 });
        return runLoad({ url, headers });
      };
      const ref = await measured(`${reference.url}/api/memory`);
      const app = await measured(`${server.url}/api/memory`);
      const ratio = app.requestsPerSecond / ref.requestsPerSecond;
      const only304 = Object.keys(app.statusCounts).every((code) => code === '304');
      return [
        {
          name: '304 gallery poll req/s (p99 ms), 5,000 memories',
          value: `${fmt(app.requestsPerSecond)} (${app.p99})${only304 ? '' : ` statuses ${JSON.stringify(app.statusCounts)}`}`,
          reference: `${fmt(ref.requestsPerSecond)} (${ref.p99}) bare node:http 304`,
          ratio: fmt(ratio, 2),
          target: '>= 0.50',
          met: ratio >= 0.5 && only304 && app.errors === 0,
        },
        {
          name: 'first gallery page (60 memories) JSON size',
          value: `${fmt(Buffer.byteLength(body) / 1024, 1)} KB`,
          reference: '60 KB budget',
          ratio: fmt(Buffer.byteLength(body) / (60 * 1024), 2),
          target: '< 60 KB',
          met: Buffer.byteLength(body) < 60 * 1024,
        },
      ];
    } finally {
      await reference.stop();
    }
  } finally {
    await server.stop();
  }
}
