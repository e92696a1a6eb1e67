import os from 'node:os';
import {
  FfmpegError,
  type RenditionPlan,
  type VideoProbe,
  extractPoster,
  probeVideo,
  renderVideo,
  renditionSize,
} from './ffmpeg.ts';
import {
  type ImagePipeline,
  UnreadableImageError,
  UnreadableMediaError,
} from './image-pipeline.ts';
import type { Rendition } from './images.ts';
import { VideoQueue } from './video-queue.ts';

/** Thrown when ffmpeg cannot read a video, or decode a frame of it: it is damaged. */
export class UnreadableVideoError extends UnreadableMediaError {
  override name = 'UnreadableVideoError';
}

/** A video as read at upload: what it holds, and its poster in two sizes. */
export interface ReadVideo {
  probe: VideoProbe;
  /** The width and height it is shown at (upright), within the rendition's 1080p. */
  width: number;
  height: number;
  /** The poster: a JPEG of the frame, at most 1280 px long (link previews, the player). */
  poster: Rendition;
  /** The tile's picture: WebP, about 480 px, like a photo's thumbnail. */
  thumbnail: Rendition;
}

/** Where ffmpeg's words go: the app's log, at debug. */
export type FfmpegLog = (details: { stderr: string; what: string }) => void;

export interface VideoPipeline {
  /**
   * Reads an uploaded video with ffmpeg and takes its poster, while the upload waits (a frame
   * job, ahead of every rendition). Throws `UnreadableVideoError` when ffmpeg cannot read it.
   */
  read(file: string, signal?: AbortSignal): Promise<ReadVideo>;
  /**
   * Writes the playable rendition of `input` to `output`. Throws `FfmpegError` when it fails.
   * Run it inside `queue.run('rendition', owner, …)`.
   */
  render(
    input: string,
    output: string,
    options: { signal?: AbortSignal },
  ): Promise<{ plan: RenditionPlan; width: number; height: number }>;
  /** Reads a stored video and takes its poster, inside a rendition job (no queue of its own). */
  readNow(file: string, signal?: AbortSignal): Promise<ReadVideo>;
  readonly queue: VideoQueue;
}

/** The poster's longest side: big enough for a link preview card (1200 × 630). */
const POSTER_MAX_SIDE = 1280;

/** Longest a rendition may take: ten times the clip's length, and at least ten minutes. */
const renderTimeoutMs = (probe: VideoProbe) =>
  Math.max(10 * 60_000, probe.durationSeconds * 10_000);

/**
 * ffmpeg behind one fair queue (decision 154): at most one process per core, renditions on all
 * cores but one (frames and photos keep the other), each niced. Posters are rendered by the image
 * pipeline, like a photo's thumbnail.
 */
export function createVideoPipeline(options: {
  images: ImagePipeline;
  log: FfmpegLog;
  slots?: number;
  renditionSlots?: number;
}): VideoPipeline {
  const cores = os.availableParallelism();
  const queue = new VideoQueue({
    slots: options.slots ?? cores,
    renditionSlots: options.renditionSlots ?? Math.max(1, cores - 1),
  });
  const logged = <T>(what: string, job: () => Promise<T>): Promise<T> =>
    job().catch((error: unknown) => {
      if (error instanceof FfmpegError) options.log({ stderr: error.stderr, what });
      throw error;
    });

  const probeAndFrame = async (file: string, signal: AbortSignal | undefined) => {
    try {
      const probe = await logged('probe', () => probeVideo(file, signal));
      const frame = await logged('poster', () =>
        extractPoster(file, probe, { maxSide: POSTER_MAX_SIDE, signal }),
      );
      return { probe, frame };
    } catch (error) {
      throw error instanceof FfmpegError ? new UnreadableVideoError(error) : error;
    }
  };
  const withPoster = async ({ probe, frame }: { probe: VideoProbe; frame: Buffer }) => {
    const { large, small } = await options.images
      .render(
        frame,
        { mime: 'image/jpeg', ext: 'jpg', kind: 'image' },
        {
          large: { maxSide: POSTER_MAX_SIDE, format: 'as-sent', quality: 82 },
          small: { maxSide: 480, quality: 75 },
          keepAnimation: false,
        },
      )
      .catch((error: unknown) => {
        throw error instanceof UnreadableImageError ? new UnreadableVideoError(error) : error;
      });
    return { probe, ...renditionSize(probe), poster: large, thumbnail: small };
  };

  return {
    queue,
    read: async (file, signal) =>
      withPoster(await queue.run('frame', '', () => probeAndFrame(file, signal))),
    readNow: async (file, signal) => withPoster(await probeAndFrame(file, signal)),
    async render(input, output, { signal }) {
      const probe = await logged('probe', () => probeVideo(input, signal));
      const plan = await logged('rendition', () =>
        renderVideo(input, output, probe, { signal, timeoutMs: renderTimeoutMs(probe) }),
      );
      return { plan, ...renditionSize(probe) };
    },
  };
}
