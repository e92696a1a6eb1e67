import fs from 'node:fs/promises';
import os from 'node:os';
import pLimit from 'p-limit';
import { decodeHeicInWorker, sharpDecodesHevc } from './heic.ts';
import { ImageQueue } from './image-queue.ts';
import {
  type RawImage,
  type Rendition,
  type SniffedType,
  framesOf,
  renderImage,
} from './images.ts';

/** Thrown when a file that looked like an image cannot be decoded whole. */
export class UnreadableImageError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = 'UnreadableImageError';
  }
}

/** The two renditions an uploaded picture becomes. */
export interface ImagePlan {
  /**
   * The large rendition: its longest side, and its format: `as-sent` keeps JPEG, PNG, WebP and
   * GIF (browsers show them) and makes HEIC a JPEG.
   */
  large: { maxSide: number; format: 'as-sent' | 'webp'; quality?: number };
  /** The small one (WebP), made from the large one: a thumbnail, or a square avatar. */
  small: { maxSide: number; square?: boolean; quality?: number };
  /**
   * Whether an animated GIF or WebP keeps its frames in the large rendition, within the
   * animation budget (else its first frame is used). The small one is always the first frame.
   */
  keepAnimation: boolean;
}

/**
 * The budget of an animation's large rendition (decision 129): at most this many frames, and
 * at most this many pixels over all of them. A 76-frame, 720-pixel GIF keeps its first 30.
 */
const ANIMATION_MAX_FRAMES = 50;
const ANIMATION_MAX_PIXELS = 16_000_000;

/** The frames an animation keeps: within both budgets, at the size it is rendered at. */
export function animationFrames(
  source: { frames: number; width: number; height: number },
  maxSide: number,
): number {
  const scale = Math.min(1, maxSide / Math.max(1, source.width, source.height));
  const pixels = Math.max(1, Math.round(source.width * scale) * Math.round(source.height * scale));
  return Math.max(
    1,
    Math.min(source.frames, ANIMATION_MAX_FRAMES, Math.floor(ANIMATION_MAX_PIXELS / pixels)),
  );
}

export interface ImagePipeline {
  /**
   * Renders an uploaded picture (a staged file, or its bytes): decoded whole (a damaged or
   * truncated file throws UnreadableImageError), upright, without any metadata (EXIF, GPS, XMP).
   */
  render(
    input: string | Buffer,
    type: SniffedType,
    plan: ImagePlan,
  ): Promise<{ large: Rendition; small: Rendition }>;
}

const AS_SENT: Record<string, 'jpeg' | 'png' | 'webp' | 'gif'> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/heic': 'jpeg',
  'image/heif': 'jpeg',
};

const isHeif = (mime: string) => mime === 'image/heic' || mime === 'image/heif';

/**
 * The one image pipeline of the app, for memories and speaker pictures alike: HEIC decoded one
 * at a time (a decoded 12-megapixel photo holds about 50 MB), renditions one per core (more
 * would not finish sooner, and each holds a decoded photo), through a queue fair to still
 * photos that refuses a picture once its wait would pass `maxWaitMs` (`ImageQueueFullError`).
 */
export function createImagePipeline(options: { maxWaitMs: number }): ImagePipeline {
  const heicDecoder = pLimit(1);
  const queue = new ImageQueue({
    slots: os.availableParallelism(),
    maxWaitMs: options.maxWaitMs,
  });

  async function decodeHeif(input: string | Buffer): Promise<Buffer | RawImage> {
    const bytes = typeof input === 'string' ? await fs.readFile(input) : input;
    // Prefer sharp where its libvips reads HEVC; else libheif (WebAssembly) in a worker. HEIF
    // coded with AV1 is read by sharp.
    const viaWorker = () => heicDecoder(() => decodeHeicInWorker(bytes));
    const viaSharp = async () => {
      await renderImage(bytes, { maxSide: 16, format: 'jpeg' });
      return bytes;
    };
    if (sharpDecodesHevc()) return viaSharp().catch(viaWorker);
    try {
      return await viaWorker();
    } catch (error) {
      return viaSharp().catch(() => {
        throw error;
      });
    }
  }

  async function renderNow(
    input: string | Buffer,
    type: SniffedType,
    plan: ImagePlan,
    frames: number,
  ): Promise<{ large: Rendition; small: Rendition }> {
    const format = plan.large.format === 'webp' ? 'webp' : AS_SENT[type.mime];
    if (!format) throw new UnreadableImageError(`no rendition for ${type.mime}`);
    try {
      const source = isHeif(type.mime) ? await decodeHeif(input) : input;
      const large = await renderImage(source, {
        maxSide: plan.large.maxSide,
        format,
        quality: plan.large.quality ?? 85,
        animated: frames > 1,
        frames,
      });
      // The thumbnail is the first frame: a grid of animated tiles would cost every phone too.
      const small = await renderImage(large.data, {
        maxSide: plan.small.maxSide,
        format: 'webp',
        quality: plan.small.quality ?? 75,
        square: plan.small.square ?? false,
      });
      return { large, small };
    } catch (error) {
      throw new UnreadableImageError(error);
    }
  }

  /** How many frames the large rendition keeps: 1 for a still picture. */
  async function framesToKeep(
    input: string | Buffer,
    type: SniffedType,
    plan: ImagePlan,
  ): Promise<number> {
    if (!plan.keepAnimation || (type.mime !== 'image/gif' && type.mime !== 'image/webp')) return 1;
    try {
      const source = await framesOf(input);
      return source.frames > 1 ? animationFrames(source, plan.large.maxSide) : 1;
    } catch (error) {
      throw new UnreadableImageError(error);
    }
  }

  return {
    render: async (input, type, plan) => {
      const frames = await framesToKeep(input, type, plan);
      return queue.run(frames > 1 ? 'animated' : 'still', () =>
        renderNow(input, type, plan, frames),
      );
    },
  };
}
