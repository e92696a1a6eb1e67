import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { postMultipart } from '../lib/multipart.ts';
import { type BenchServer, startAppServer } from '../lib/processes.ts';
import { type Row, fmt, mb } from '../lib/report.ts';

const FIXTURE = path.resolve(import.meta.dirname, '../../tests/fixtures/iphone-12mp.heic');
const HEALTH_BUDGET_MS = 200;

/** A 12-megapixel JPEG of the same size (4032 × 3024) and kind of content: the reference. */
async function twelveMegapixelJpeg(): Promise<Buffer> {
  const width = 4032;
  const height = 3024;
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const i = (y * width + x) * 3;
      const n = ((x * 7919 + y * 104729) % 41) - 20;
      pixels[i] = Math.max(0, Math.min(255, 40 + (x / width) * 200 + n));
      pixels[i + 1] = Math.max(0, Math.min(255, 60 + (y / height) * 150 + n));
      pixels[i + 2] = Math.max(0, Math.min(255, 180 - (x / width) * 120 + n));
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

/** Posts one photo; answers the seconds until the 201 (throws on anything else). */
async function postPhoto(server: BenchServer, data: Buffer, name: string): Promise<number> {
  const start = performance.now();
  const result = await postMultipart(
    `${server.url}/api/memories`,
    { caption: 'Bench photo', username: 'bench' },
    [
      {
        field: 'files',
        filename: name,
        contentType: 'application/octet-stream',
        chunks: async function* () {
          yield data;
        },
      },
    ],
  );
  if (result.status !== 201) throw new Error(`${name}: ${result.status} ${result.body}`);
  return (performance.now() - start) / 1000;
}

interface Phase {
  times: number[];
  peakRss: number;
  slowestHealthMs: number;
}

/**
 * Runs `rounds` rounds of `atOnce` uploads of `data`, sampling the server's resident memory
 * every 20 ms and timing `GET /api/health` every 50 ms meanwhile.
 */
async function phase(
  server: BenchServer,
  data: Buffer,
  name: string,
  atOnce: number,
  rounds: number,
  idleMs = 0,
): Promise<Phase> {
  const state = { running: true, peakRss: await server.rss(), slowestHealthMs: 0 };
  const sampler = (async () => {
    while (state.running) {
      state.peakRss = Math.max(state.peakRss, await server.rss());
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const health = (async () => {
    while (state.running) {
      const start = performance.now();
      const response = await fetch(`${server.url}/api/health`);
      await response.arrayBuffer();
      state.slowestHealthMs = Math.max(state.slowestHealthMs, performance.now() - start);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const times: number[] = [];
  try {
    await new Promise((resolve) => setTimeout(resolve, idleMs));
    for (let round = 0; round < rounds; round += 1) {
      times.push(
        ...(await Promise.all(
          Array.from({ length: atOnce }, (_, i) => postPhoto(server, data, `${i}-${name}`)),
        )),
      );
    }
  } finally {
    state.running = false;
    await Promise.all([sampler, health]);
  }
  return { times, peakRss: state.peakRss, slowestHealthMs: state.slowestHealthMs };
}

/**
 * A 12-megapixel HEIC as an iPhone sends it (decoded by libheif in WebAssembly), stored with its
 * full-resolution master, display rendition and thumbnail: 1 at a time and 4 at once, beside a
 * 12-megapixel JPEG (decoded by libvips) through the same server in the same run.
 */
export async function photos(): Promise<Row[]> {
  const heic = await fs.readFile(FIXTURE);
  const jpeg = await twelveMegapixelJpeg();
  const server = await startAppServer({ MAX_UPLOAD_MB: '50' });
  try {
    await postPhoto(server, jpeg, 'warm.jpg');
    await postPhoto(server, heic, 'warm.heic');
    const idle = await server.rss();
    // The health check's slowest answer with nothing to do, over 3 s: what the machine allows.
    const quiet = await phase(server, heic, 'none', 0, 0, 3000);
    const heicOne = await phase(server, heic, 'IMG.HEIC', 1, 5);
    const jpegOne = await phase(server, jpeg, 'IMG.JPG', 1, 5);
    const heicFour = await phase(server, heic, 'IMG.HEIC', 4, 2);
    const jpegFour = await phase(server, jpeg, 'IMG.JPG', 4, 2);
    const times = (p: Phase) =>
      `median ${fmt(median(p.times), 2)} s, slowest ${fmt(Math.max(...p.times), 2)} s`;
    const slowestHealth = Math.max(heicOne.slowestHealthMs, heicFour.slowestHealthMs);
    return [
      {
        name: `12-MP HEIC (${mb(heic.length)}), 1 at a time ×5: time to 201`,
        value: times(heicOne),
        reference: `12-MP JPEG (${mb(jpeg.length)}): ${times(jpegOne)}`,
        ratio: fmt(median(heicOne.times) / median(jpegOne.times), 1),
        target: 'informational (was 1.0-4.5 s)',
        met: null,
      },
      {
        name: '12-MP HEIC, 4 at once ×2: time to 201',
        value: times(heicFour),
        reference: `12-MP JPEG: ${times(jpegFour)}`,
        ratio: fmt(median(heicFour.times) / median(jpegFour.times), 1),
        target: 'informational',
        met: null,
      },
      {
        name: '12-MP HEIC: server peak resident memory, 1 / 4 at once',
        value: `${mb(heicOne.peakRss)} / ${mb(heicFour.peakRss)} (idle ${mb(idle)})`,
        reference: `JPEG: ${mb(jpegOne.peakRss)} / ${mb(jpegFour.peakRss)}`,
        ratio: fmt(heicFour.peakRss / jpegFour.peakRss, 2),
        target: 'informational (was up to 463 MB)',
        met: null,
      },
      {
        name: 'GET /api/health while HEICs are stored: slowest answer',
        value: `${fmt(slowestHealth)} ms`,
        reference: `while JPEGs are: ${fmt(Math.max(jpegOne.slowestHealthMs, jpegFour.slowestHealthMs))} ms; idle: ${fmt(quiet.slowestHealthMs)} ms`,
        ratio: fmt(slowestHealth / HEALTH_BUDGET_MS, 2),
        target: `< ${HEALTH_BUDGET_MS} ms`,
        met: slowestHealth < HEALTH_BUDGET_MS,
      },
    ];
  } finally {
    await server.stop();
  }
}
