import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { memorySchema, memoryPostResponseSchema } from '../../src/shared/schemas/memory.ts';
import { probeVideo, renderVideo, runFfmpeg } from '../../src/server/media/ffmpeg.ts';
import { postMultipart } from '../lib/multipart.ts';
import { startAppServer } from '../lib/processes.ts';
import { type Row, fmt, mb } from '../lib/report.ts';

const CLIP_SECONDS = 60;
const MEMORY_GROWTH_BUDGET = 128 * 1024 * 1024;

/**
 * A one-minute 1080p HEVC clip as an iPhone films it (portrait: coded 1920 × 1080, turned 90°;
 * AAC sound), made once with the ffmpeg of the npm package (libx265) and kept in the temporary
 * folder for the next runs.
 */
async function iphoneClip(): Promise<string> {
  const file = path.join(os.tmpdir(), `confab-bench-hevc-${CLIP_SECONDS}s-1080p.mov`);
  if (fs.existsSync(file)) return file;
  const partial = `${file}.${process.pid}.partial.mov`;
  const run = await runFfmpeg(
    [
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=1920x1080:rate=30:duration=${CLIP_SECONDS}`,
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=440:duration=${CLIP_SECONDS}`,
      '-c:v',
      'libx265',
      '-preset',
      'ultrafast',
      '-x265-params',
      'log-level=error',
      '-crf',
      '28',
      '-pix_fmt',
      'yuv420p',
      '-tag:v',
      'hvc1',
      '-c:a',
      'aac',
      '-b:a',
      '128k',
      '-metadata:s:v:0',
      'rotate=90',
      '-shortest',
      '-f',
      'mov',
      partial,
    ],
    { timeoutMs: 30 * 60_000 },
  );
  if (run.code !== 0) throw new Error(`the bench clip could not be made: ${run.stderr}`);
  await fsp.rename(partial, file);
  return file;
}

/** Samples the server's resident memory every 100 ms while `work` runs; answers the peak. */
async function peakDuring<T>(
  rss: () => Promise<number>,
  work: () => Promise<T>,
): Promise<{ peak: number; result: T }> {
  let peak = await rss();
  const state = { running: true };
  const sampler = (async () => {
    while (state.running) {
      peak = Math.max(peak, await rss());
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  try {
    const result = await work();
    state.running = false;
    await sampler;
    return { peak, result };
  } finally {
    state.running = false;
    await sampler;
  }
}

/**
 * A one-minute 1080p HEVC clip posted to the production server: the time until its playable
 * rendition is listed (upload, poster, queue, ffmpeg, storing), and the server's memory growth
 * meanwhile (ffmpeg's own process apart). The reference, in the same run, is the same ffmpeg
 * rendition run straight from here: the ratio is what the app adds around ffmpeg.
 */
export async function videoRenditions(): Promise<Row[]> {
  const clip = await iphoneClip();
  const size = (await fsp.stat(clip)).size;
  const probe = await probeVideo(clip);

  const server = await startAppServer({ MAX_UPLOAD_MB: '500' });
  try {
    const before = await server.rss();
    const childrenCpuBefore = await server.childrenCpuSeconds();
    const { peak, result } = await peakDuring(
      () => server.rss(),
      async () => {
        const start = performance.now();
        const response = await postMultipart(
          `${server.url}/api/memories`,
          { caption: 'Walking to the keynote', username: 'bench' },
          [
            {
              field: 'files',
              filename: 'IMG_0420.MOV',
              contentType: 'video/quicktime',
              chunks: async function* () {
                yield* fs.createReadStream(clip, {
                  highWaterMark: 1024 * 1024,
                }) as AsyncIterable<Buffer>;
              },
            },
          ],
        );
        if (response.status !== 201) throw new Error(`upload answered ${response.status}`);
        const [memory] = memoryPostResponseSchema.parse(JSON.parse(response.body)).memories;
        if (!memory) throw new Error('no memory');
        const postedMs = performance.now() - start;
        for (;;) {
          const answer = await fetch(`${server.url}/api/memory/${memory._id}`);
          // A busy machine sheds a poll now and then (503): the next one is answered.
          if (answer.status === 503) {
            await answer.body?.cancel();
            await new Promise((resolve) => setTimeout(resolve, 1000));
            continue;
          }
          if (answer.status !== 200) throw new Error(`polling answered ${answer.status}`);
          const current = memorySchema.parse(await answer.json());
          if (!current.processing) {
            if (!current.media.endsWith('.mp4')) throw new Error('no rendition was made');
            return { postedMs, playableMs: performance.now() - start };
          }
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
      },
    );
    const ffmpegCpu = (await server.childrenCpuSeconds()) - childrenCpuBefore;
    await server.stop();
    // The reference: the same rendition by ffmpeg alone, straight from here, after the app.
    const referenceOut = path.join(os.tmpdir(), `confab-bench-rendition-${process.pid}.mp4`);
    const referenceStart = performance.now();
    await renderVideo(clip, referenceOut, probe, { timeoutMs: 30 * 60_000 });
    const referenceMs = performance.now() - referenceStart;
    await fsp.rm(referenceOut, { force: true });
    const growth = peak - before;
    const realTime = (CLIP_SECONDS * 1000) / result.playableMs;
    return [
      {
        name: `1080p HEVC clip of ${CLIP_SECONDS} s (${mb(size)}): posted, with its poster`,
        value: `${fmt(result.postedMs / 1000, 1)} s`,
        reference: '',
        ratio: '',
        target: '',
        met: null,
      },
      {
        name: 'time to its playable rendition (H.264 1080p)',
        value: `${fmt(result.playableMs / 1000, 1)} s (${fmt(realTime, 2)}× real time)`,
        reference: `ffmpeg alone ${fmt(referenceMs / 1000, 1)} s`,
        ratio: `${fmt(result.playableMs / referenceMs, 2)}×`,
        target: `< ${CLIP_SECONDS} s (faster than real time)`,
        met: result.playableMs < CLIP_SECONDS * 1000,
      },
      {
        // What the wall time would be on this machine unshared: the CPU time over its cores.
        name: 'ffmpeg CPU time for it (poster and rendition)',
        value: `${fmt(ffmpegCpu, 1)} s (${fmt(ffmpegCpu / os.availableParallelism(), 1)} s over ${os.availableParallelism()} cores)`,
        reference: '',
        ratio: '',
        target: `< ${fmt(CLIP_SECONDS * os.availableParallelism())} s (real time, all cores)`,
        met: ffmpegCpu < CLIP_SECONDS * os.availableParallelism(),
      },
      {
        name: "server's memory growth meanwhile (ffmpeg apart)",
        value: mb(growth),
        reference: `${mb(before)} before`,
        ratio: '',
        target: `< ${mb(MEMORY_GROWTH_BUDGET)}`,
        met: growth < MEMORY_GROWTH_BUDGET,
      },
    ];
  } finally {
    await server.stop();
  }
}
