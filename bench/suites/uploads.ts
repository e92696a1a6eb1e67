import { mp4Chunks, postMultipart } from '../lib/multipart.ts';
import { startAppServer, startReferenceServer } from '../lib/processes.ts';
import { type Row, fmt, mb } from '../lib/report.ts';

const VIDEO_BYTES = 200 * 1024 * 1024;

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
