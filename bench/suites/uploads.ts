import sharp from 'sharp';
import { mp4Chunks, postMultipart } from '../lib/multipart.ts';
import { startAppServer, startReferenceServer } from '../lib/processes.ts';
import { type Row, fmt, mb } from '../lib/report.ts';

const VIDEO_BYTES = 200 * 1024 * 1024;
const IMAGES = 20;
const PEAK_RSS_BUDGET = 300 * 1024 * 1024;

/** A real ~10 MB JPEG: a 12-megapixel photo's worth of noise, which JPEG cannot shrink. */
async function tenMegabyteJpeg(): Promise<Buffer> {
  const width = 4000;
  const height = 3000;
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i += 4)
    pixels.writeUInt32LE((Math.random() * 2 ** 32) >>> 0, i);
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** Every memory the gallery's first page lists. */
async function listed(url: string): Promise<number> {
  const response = await fetch(`${url}/api/memory?limit=60`);
  return ((await response.json()) as unknown[]).length;
}

/** Samples a process's resident memory every 20 ms while `work` runs; answers the peak. */
async function peakRss(rss: () => Promise<number>, work: () => Promise<unknown>): Promise<number> {
  let peak = await rss();
  const state = { running: true };
  const sampler = (async () => {
    while (state.running) {
      peak = Math.max(peak, await rss());
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  try {
    await work();
  } finally {
    state.running = false;
    await sampler;
  }
  return peak;
}

/**
 * 20 concurrent uploads of 10 MB photos and one 200 MB video, against the same uploads into a
 * bare node:http sink: throughput, time until the gallery lists them all, peak resident memory.
 */
export async function concurrentUploads(): Promise<Row[]> {
  const server = await startAppServer({ MAX_UPLOAD_MB: '300' });
  const reference = await startReferenceServer({});
  try {
    const photo = await tenMegabyteJpeg();
    const totalBytes = IMAGES * photo.length + VIDEO_BYTES;
    const all = (url: string) =>
      Promise.all([
        ...Array.from({ length: IMAGES }, (_, i) =>
          postMultipart(url, { caption: `Photo ${i}`, username: `guest${i}` }, [
            {
              field: 'files',
              filename: `photo-${i}.jpg`,
              contentType: 'image/jpeg',
              chunks: async function* () {
                yield photo;
              },
            },
          ]),
        ),
        postMultipart(url, { caption: 'Keynote video', username: 'bench' }, [
          {
            field: 'files',
            filename: 'keynote.mp4',
            contentType: 'video/mp4',
            chunks: mp4Chunks(VIDEO_BYTES),
          },
        ]),
      ]);
    const refStart = performance.now();
    await all(`${reference.url}/sink`);
    const refSeconds = (performance.now() - refStart) / 1000;

    await listed(server.url); // warm up
    const before = await server.rss();
    const start = performance.now();
    let results: { status: number }[] = [];
    let galleryAt = 0;
    const peak = await peakRss(
      () => server.rss(),
      async () => {
        results = await all(`${server.url}/api/memories`);
        while ((await listed(server.url)) < IMAGES + 1) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        galleryAt = performance.now();
      },
    );
    const seconds = (galleryAt - start) / 1000;
    const ok = results.filter((r) => r.status === 201).length;
    return [
      {
        name: `${IMAGES} × ${mb(photo.length)} photos + 200 MB video at once: answered 201, MB/s`,
        value: `${ok}/${IMAGES + 1}, ${fmt(totalBytes / 2 ** 20 / seconds)} MB/s`,
        reference: `${fmt(totalBytes / 2 ** 20 / refSeconds)} MB/s into a bare node:http sink`,
        ratio: fmt(refSeconds / seconds, 2),
        target: 'all 201',
        met: ok === IMAGES + 1,
      },
      {
        name: 'the same: time until the gallery lists them all',
        value: `${fmt(seconds, 1)} s`,
        reference: `${fmt(refSeconds, 1)} s to receive the bytes (bare sink)`,
        ratio: fmt(seconds / refSeconds, 1),
        target: 'informational',
        met: null,
      },
      {
        name: 'the same: server peak resident memory',
        value: `${mb(peak)} (idle ${mb(before)})`,
        reference: `${mb(PEAK_RSS_BUDGET)} budget`,
        ratio: fmt(peak / PEAK_RSS_BUDGET, 2),
        target: '< 300 MB',
        met: peak < PEAK_RSS_BUDGET,
      },
    ];
  } finally {
    await reference.stop();
    await server.stop();
  }
}

/** A 200 MB video upload: the server's resident memory must not follow the file's size. */
export async function videoUpload(): Promise<Row[]> {
  const server = await startAppServer({ MAX_UPLOAD_MB: '300' });
  const reference = await startReferenceServer({});
  try {
    const upload = (url: string) =>
      postMultipart(url, { caption: 'Keynote video', username: 'bench' }, [
        {
          field: 'files',
          filename: 'keynote.mp4',
          contentType: 'video/mp4',
          chunks: mp4Chunks(VIDEO_BYTES),
        },
      ]);
    // Warm up so lazy initialisation is not counted as upload memory.
    await fetch(`${server.url}/api/memory`);
    const refStart = performance.now();
    await upload(`${reference.url}/sink`);
    const refSeconds = (performance.now() - refStart) / 1000;

    const before = await server.rss();
    const start = performance.now();
    let result: { status: number; body: string } = { status: 0, body: '' };
    const peak = await peakRss(
      () => server.rss(),
      async () => {
        result = await upload(`${server.url}/api/memories`);
      },
    );
    const seconds = (performance.now() - start) / 1000;
    const growth = peak - before;
    return [
      {
        name: '200 MB video upload: status, time',
        value: `${result.status}, ${fmt(seconds, 2)} s (${fmt(200 / seconds)} MB/s)`,
        reference: `${fmt(refSeconds, 2)} s into a bare node:http sink`,
        ratio: fmt(refSeconds / seconds, 2),
        target: '201',
        met: result.status === 201,
      },
      {
        name: '200 MB video upload: server resident memory growth',
        value: `${mb(growth)} (idle ${mb(before)}, peak ${mb(peak)})`,
        reference: '64 MB budget',
        ratio: fmt(growth / (64 * 1024 * 1024), 2),
        target: '< 64 MB',
        met: growth < 64 * 1024 * 1024,
      },
    ];
  } finally {
    await reference.stop();
    await server.stop();
  }
}

const TUS_CHUNK = 10 * 1024 * 1024;

/** The bytes of `source` in pieces of exactly `size` (the last one shorter). */
async function* inPieces(source: AsyncIterable<Buffer>, size: number): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let length = 0;
  for await (const chunk of source) {
    pending.push(chunk);
    length += chunk.length;
    while (length >= size) {
      const all = Buffer.concat(pending);
      yield all.subarray(0, size);
      pending = [all.subarray(size)];
      length -= size;
    }
  }
  if (length > 0) yield Buffer.concat(pending);
}

/**
 * A 200 MB video over tus (`/api/uploads`) in 10 MB PATCHes, as the app sends a long video on
 * a bad network, against the same PATCHes into a bare node:http sink: time, and the server's
 * resident memory growth (the file must never be held whole).
 */
export async function tusVideoUpload(): Promise<Row[]> {
  const server = await startAppServer({ MAX_UPLOAD_MB: '300' });
  const reference = await startReferenceServer({});
  try {
    const joined = await fetch(`${server.url}/api/attendees`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'bench' }),
    });
    const { token } = (await joined.json()) as { token: string };
    const b64 = (text: string) => Buffer.from(text).toString('base64');
    const send = async (base: string, tus: boolean, bytes = VIDEO_BYTES): Promise<number> => {
      let location = '/sink';
      if (tus) {
        const created = await fetch(`${base}/api/uploads`, {
          method: 'POST',
          headers: {
            'tus-resumable': '1.0.0',
            authorization: `Bearer ${token}`,
            'upload-length': String(bytes),
            'upload-metadata': `filename ${b64('keynote.mp4')},filetype ${b64('video/mp4')},caption ${b64('Keynote over tus')},username ${b64('bench')}`,
          },
        });
        location = created.headers.get('location') ?? '';
      }
      let offset = 0;
      let status = 0;
      for await (const piece of inPieces(mp4Chunks(bytes)(), TUS_CHUNK)) {
        const response = await fetch(`${base}${location}`, {
          method: tus ? 'PATCH' : 'POST',
          headers: {
            'tus-resumable': '1.0.0',
            authorization: `Bearer ${token}`,
            'content-type': 'application/offset+octet-stream',
            'upload-offset': String(offset),
          },
          body: new Uint8Array(piece),
        });
        await response.arrayBuffer();
        status = response.status;
        offset += piece.length;
      }
      return status;
    };
    // Warm up with one small video over the same path, so what its first use loads (the tus
    // server, the video reader, the poster's image code) is not counted as the big file's memory.
    await send(server.url, true, TUS_CHUNK);
    const refStart = performance.now();
    await send(reference.url, false);
    const refSeconds = (performance.now() - refStart) / 1000;

    const before = await server.rss();
    const start = performance.now();
    let status = 0;
    const peak = await peakRss(
      () => server.rss(),
      async () => {
        status = await send(server.url, true);
      },
    );
    const seconds = (performance.now() - start) / 1000;
    const growth = peak - before;
    const made = await listed(server.url);
    return [
      {
        name: '200 MB video over tus, 10 MB PATCHes: last status, memories, time',
        value: `${status}, ${made - 1}, ${fmt(seconds, 2)} s (${fmt(200 / seconds)} MB/s)`,
        reference: `${fmt(refSeconds, 2)} s into a bare node:http sink`,
        ratio: fmt(refSeconds / seconds, 2),
        target: '204, 1 memory',
        // The warm-up's memory and the big file's.
        met: status === 204 && made === 2,
      },
      {
        name: '200 MB video over tus: server resident memory growth (after a 10 MB one)',
        value: `${mb(growth)} (idle ${mb(before)}, peak ${mb(peak)})`,
        reference: '64 MB budget',
        ratio: fmt(growth / (64 * 1024 * 1024), 2),
        target: '< 64 MB',
        met: growth < 64 * 1024 * 1024,
      },
    ];
  } finally {
    await reference.stop();
    await server.stop();
  }
}

/** The upload suite: one big video alone (as one post, then over tus), then many at once. */
export async function uploads(): Promise<Row[]> {
  return [...(await videoUpload()), ...(await tusVideoUpload()), ...(await concurrentUploads())];
}
