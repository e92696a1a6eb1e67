import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The ffmpeg that ships inside the npm package `@ffmpeg-installer/linux-x64` (4.1, static, with
 * libx264, libx265 and the native AAC encoder). It has no ffprobe: what a video holds is read
 * from what `ffmpeg -i` writes on stderr. Every run is niced, its stdin closed, its stdout and
 * stderr captured (never the server's own), and killed when it overruns or the app closes.
 */
export const FFMPEG_PATH = path.join(
  path.dirname(fileURLToPath(import.meta.resolve('@ffmpeg-installer/linux-x64/package.json'))),
  'ffmpeg',
);

/** Niceness of every ffmpeg run: requests, photos and the event loop come first. */
const NICENESS = 10;
/** What is kept of a run's stderr: its end, where the error is. */
const STDERR_KEEP = 16 * 1024;

/** Thrown when ffmpeg cannot read a file, or a run fails: the message is ffmpeg's last words. */
export class FfmpegError extends Error {
  /** ffmpeg's stderr (its end), for the debug log. */
  readonly stderr: string;
  constructor(message: string, stderr: string) {
    super(message);
    this.name = 'FfmpegError';
    this.stderr = stderr;
  }
}

export interface FfmpegRun {
  stdout: Buffer;
  stderr: string;
  code: number | null;
}

/**
 * Runs ffmpeg with `args`; answers its exit code, stdout (when `captureStdout`, at most
 * `maxStdoutBytes`) and the end of its stderr. Killed after `timeoutMs` or on `signal`.
 */
export function runFfmpeg(
  args: string[],
  options: {
    timeoutMs: number;
    signal?: AbortSignal | undefined;
    captureStdout?: boolean;
    maxStdoutBytes?: number;
  },
): Promise<FfmpegRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(FFMPEG_PATH, ['-hide_banner', '-nostdin', ...args], {
      stdio: ['ignore', options.captureStdout ? 'pipe' : 'ignore', 'pipe'],
      signal: options.signal,
      killSignal: 'SIGKILL',
      timeout: options.timeoutMs,
    });
    if (child.pid !== undefined) {
      try {
        os.setPriority(child.pid, NICENESS);
      } catch {
        // Gone already, or not allowed: it runs at the server's priority.
      }
    }
    const chunks: Buffer[] = [];
    let stdoutBytes = 0;
    const maxStdout = options.maxStdoutBytes ?? 32 * 1024 * 1024;
    child.stdout?.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > maxStdout) {
        child.kill('SIGKILL');
        return;
      }
      chunks.push(chunk);
    });
    let stderr = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => {
      stderr = (stderr + text).slice(-STDERR_KEEP);
    });
    child.on('error', (error) => {
      if (error.name === 'AbortError') reject(error);
      else reject(new FfmpegError(`ffmpeg could not run: ${error.message}`, stderr));
    });
    child.on('close', (code, signal) => {
      if (signal && options.signal?.aborted) {
        reject(new FfmpegError('ffmpeg was stopped', stderr));
        return;
      }
      if (signal) {
        reject(new FfmpegError(`ffmpeg was killed (${signal})`, stderr));
        return;
      }
      resolve({ stdout: Buffer.concat(chunks), stderr, code });
    });
  });
}

/** The last meaningful line ffmpeg wrote: why it failed. */
const lastWords = (stderr: string): string =>
  stderr
    .trim()
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .at(-1) ?? 'no output';

/** What a video holds, as `ffmpeg -i` tells it. */
export interface VideoProbe {
  /** Seconds; 0 when ffmpeg does not know. */
  durationSeconds: number;
  video: {
    /** ffmpeg's codec name: `h264`, `hevc`, `vp8`, `vp9`, `av1`, … */
    codec: string;
    /** `High`, `Main`, `Main 10`, … when written. */
    profile: string | undefined;
    pixelFormat: string | undefined;
    /** As coded, before rotation. */
    width: number;
    height: number;
    /** Clockwise degrees the picture is turned when shown: 0, 90, 180 or 270. */
    rotation: number;
  };
  audio: { codec: string } | undefined;
}

/** The width and height a video is shown at: its coded size, turned by its rotation. */
export const displaySize = (probe: VideoProbe): { width: number; height: number } =>
  probe.video.rotation % 180 === 90
    ? { width: probe.video.height, height: probe.video.width }
    : { width: probe.video.width, height: probe.video.height };

/** Reads `ffmpeg -i` output: the first video and audio streams of the first input. */
export function parseProbe(stderr: string): VideoProbe | undefined {
  const lines = stderr.split('\n');
  const duration = /Duration: (\d+):(\d\d):(\d\d(?:\.\d+)?)/.exec(stderr);
  const durationSeconds = duration
    ? Number(duration[1]) * 3600 + Number(duration[2]) * 60 + Number(duration[3])
    : 0;
  let video: VideoProbe['video'] | undefined;
  let audio: VideoProbe['audio'];
  /** The stream whose metadata and side data lines follow. */
  let current: 'video' | 'other' = 'other';
  for (const line of lines) {
    const stream =
      /^\s*Stream #0:\d+(?:\[[^\]]*\])?(?:\([^)]*\))?: (Video|Audio|Data|Subtitle|Attachment): (.*)$/.exec(
        line,
      );
    if (stream) {
      const [, kind, rest = ''] = stream;
      current = 'other';
      if (kind === 'Video' && !video) {
        const codec = /^([\w-]+)/.exec(rest)?.[1];
        const size = /, (\d{1,5})x(\d{1,5})(?:[ ,]|$)/.exec(rest);
        if (!codec || !size || codec === 'mjpeg' || codec === 'png') continue;
        const profile = /^[\w-]+ \(([^)]*)\)/.exec(rest)?.[1];
        // The part after the codec: "yuv420p(tv, progressive)", "yuv420p10le(tv, bt2020nc, …)".
        const afterCodec = rest.replace(/^[^,]*\([^)]*\)[^,]*,|^[^,]*,/, '').trim();
        const pixelFormat = /^([a-z0-9_]+)/.exec(afterCodec)?.[1];
        video = {
          codec,
          profile: profile && !profile.includes('/') ? profile : undefined,
          pixelFormat,
          width: Number(size[1]),
          height: Number(size[2]),
          rotation: 0,
        };
        current = 'video';
      } else if (kind === 'Audio' && !audio) {
        const codec = /^([\w-]+)/.exec(rest)?.[1];
        if (codec) audio = { codec };
      }
      continue;
    }
    if (current !== 'video' || !video) continue;
    const rotate = /^\s*rotate\s*:\s*(-?\d+)/.exec(line);
    const matrix = /displaymatrix: rotation of (-?[\d.]+) degrees/.exec(line);
    // The tag is clockwise; the display matrix is counter-clockwise (-90 is a portrait phone).
    const degrees = rotate ? Number(rotate[1]) : matrix ? -Number(matrix[1]) : undefined;
    if (degrees !== undefined && Number.isFinite(degrees)) {
      video.rotation = (((Math.round(degrees / 90) * 90) % 360) + 360) % 360;
    }
  }
  if (!video) return undefined;
  return { durationSeconds, video, audio };
}

/** What ffmpeg reads from `file`; throws `FfmpegError` when it finds no video in it. */
export async function probeVideo(file: string, signal?: AbortSignal): Promise<VideoProbe> {
  // Without an output ffmpeg only describes its input, and exits 1 for want of an output.
  const run = await runFfmpeg(['-i', file], { timeoutMs: 30_000, signal });
  const probe = parseProbe(run.stderr);
  if (!probe) throw new FfmpegError(`no video found: ${lastWords(run.stderr)}`, run.stderr);
  return probe;
}

/** Where a poster is taken: 1 s in (past fades from black), the first frame of a short clip. */
export const posterTime = (durationSeconds: number): number => (durationSeconds >= 3 ? 1 : 0);

/**
 * One frame of the video as a JPEG, upright (ffmpeg turns it by its rotation), its longest side
 * at most `maxSide`: the poster. Taken at `posterTime`, or the first frame when there is none
 * there. Throws `FfmpegError` when no frame can be decoded: the video is damaged.
 */
export async function extractPoster(
  file: string,
  probe: VideoProbe,
  options: { maxSide: number; signal?: AbortSignal | undefined },
): Promise<Buffer> {
  const shown = displaySize(probe);
  const scale = Math.min(1, options.maxSide / Math.max(shown.width, shown.height));
  const size = {
    width: Math.max(1, Math.round(shown.width * scale)),
    height: Math.max(1, Math.round(shown.height * scale)),
  };
  const frameAt = async (seconds: number) => {
    const run = await runFfmpeg(
      [
        '-loglevel',
        'error',
        ...(seconds > 0 ? ['-ss', String(seconds)] : []),
        '-i',
        file,
        '-map',
        '0:v:0',
        '-frames:v',
        '1',
        '-vf',
        `scale=${size.width}:${size.height},format=yuvj420p`,
        '-map_metadata',
        '-1',
        '-c:v',
        'mjpeg',
        '-q:v',
        '2',
        '-f',
        'image2pipe',
        'pipe:1',
      ],
      { timeoutMs: 60_000, signal: options.signal, captureStdout: true },
    );
    return run;
  };
  let run = await frameAt(posterTime(probe.durationSeconds));
  if (run.stdout.length === 0 && posterTime(probe.durationSeconds) > 0) run = await frameAt(0);
  // A JPEG starts FF D8; anything else means no frame was decoded.
  if (run.code !== 0 || run.stdout.length < 2 || run.stdout[0] !== 0xff || run.stdout[1] !== 0xd8) {
    throw new FfmpegError(`no frame could be decoded: ${lastWords(run.stderr)}`, run.stderr);
  }
  return run.stdout;
}

/** The playable rendition's bounds: 1080p, in either orientation. */
const MAX_LONG_SIDE = 1920;
const MAX_SHORT_SIDE = 1080;
const H264_PROFILES = new Set(['Baseline', 'Constrained Baseline', 'Main', 'High']);
const PLAYABLE_PIXEL_FORMATS = new Set(['yuv420p', 'yuvj420p']);

/** The size a video is rendered at: within 1080p, even, in its display orientation. */
export function renditionSize(probe: VideoProbe): { width: number; height: number } {
  const { width, height } = displaySize(probe);
  const long = Math.max(width, height);
  const short = Math.min(width, height);
  const scale = Math.min(1, MAX_LONG_SIDE / long, MAX_SHORT_SIDE / short);
  const even = (value: number) => Math.max(2, Math.round((value * scale) / 2) * 2);
  return { width: even(width), height: even(height) };
}

/** What becomes of each stream: copied as it is, or encoded anew. */
export interface RenditionPlan {
  video: 'copy' | 'encode';
  audio: 'copy' | 'encode' | 'none';
}

/**
 * A clip every current browser plays as it is (H.264 in 8-bit 4:2:0, a common profile, within
 * 1080p, even sides) is copied, only its audio encoded to AAC when it is something else: a
 * remux, not a re-encode.
 */
export function renditionPlan(probe: VideoProbe): RenditionPlan {
  const { video } = probe;
  const size = displaySize(probe);
  const fits =
    Math.max(size.width, size.height) <= MAX_LONG_SIDE &&
    Math.min(size.width, size.height) <= MAX_SHORT_SIDE &&
    video.width % 2 === 0 &&
    video.height % 2 === 0;
  const playable =
    video.codec === 'h264' &&
    (video.profile === undefined || H264_PROFILES.has(video.profile)) &&
    video.pixelFormat !== undefined &&
    PLAYABLE_PIXEL_FORMATS.has(video.pixelFormat) &&
    fits;
  return {
    video: playable ? 'copy' : 'encode',
    audio: !probe.audio ? 'none' : probe.audio.codec === 'aac' ? 'copy' : 'encode',
  };
}

/**
 * Writes the playable rendition of `input` to `output`: H.264 and AAC in MP4, at most 1080p,
 * upright, `moov` before `mdat` (it starts playing before it has arrived), only the first video
 * and audio streams, and no metadata of the file or its streams (location, device, XMP, chapters).
 */
export async function renderVideo(
  input: string,
  output: string,
  probe: VideoProbe,
  options: { signal?: AbortSignal | undefined; timeoutMs: number; threads?: number },
): Promise<RenditionPlan> {
  const plan = renditionPlan(probe);
  const { width, height } = renditionSize(probe);
  const videoArgs =
    plan.video === 'copy'
      ? // A copied stream keeps its display matrix (side data, not metadata: `-map_metadata -1`
        // leaves it), so players turn it upright. (Setting `rotate` again would not help: 4.1
        // writes the tag's angle the other way round from how it reads it.)
        ['-c:v', 'copy']
      : [
          // ffmpeg turns the frames upright itself (autorotate) and writes no rotation then.
          '-vf',
          `scale=${width}:${height}:flags=bicubic,format=yuv420p`,
          '-c:v',
          'libx264',
          '-preset',
          'veryfast',
          '-crf',
          '23',
          '-profile:v',
          'high',
          '-maxrate',
          '8M',
          '-bufsize',
          '16M',
          ...(options.threads ? ['-threads', String(options.threads)] : []),
        ];
  const audioArgs =
    plan.audio === 'none'
      ? ['-an']
      : plan.audio === 'copy'
        ? ['-c:a', 'copy']
        : ['-c:a', 'aac', '-b:a', '128k', '-ac', '2'];
  const run = await runFfmpeg(
    [
      '-loglevel',
      'error',
      '-y',
      '-i',
      input,
      '-map',
      '0:v:0',
      '-map',
      '0:a:0?',
      '-map_metadata',
      '-1',
      '-map_metadata:s',
      '-1',
      '-map_chapters',
      '-1',
      '-sn',
      '-dn',
      ...videoArgs,
      ...audioArgs,
      '-metadata:s',
      'handler_name=',
      '-fflags',
      '+bitexact',
      '-movflags',
      '+faststart',
      '-f',
      'mp4',
      output,
    ],
    { timeoutMs: options.timeoutMs, signal: options.signal },
  );
  if (run.code !== 0) {
    throw new FfmpegError(`the video could not be rendered: ${lastWords(run.stderr)}`, run.stderr);
  }
  return plan;
}
