import fs from 'node:fs/promises';
import os from 'node:os';
import {
  type DecodedHeif,
  HeifDecodeError,
  MAX_IMAGE_PIXELS,
  decodeHeicInWorker,
  sharpDecodesHevc,
} from './heic.ts';
import { ImageQueue } from './image-queue.ts';
import {
  type Rendition,
  type SniffedType,
  framesOf,
  isPixelCapError,
  renderImage,
} from './images.ts';

/** A file that looked like a picture or a video but is damaged; says what its reader said. */
export class UnreadableMediaError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

/** Thrown when a file that looked like an image cannot be decoded whole. */
export class UnreadableImageError extends UnreadableMediaError {
  override name = 'UnreadableImageError';
}

/** Thrown when a picture has more pixels than the server decodes (`MAX_IMAGE_PIXELS`). */
export class ImageTooLargeError extends Error {
  readonly maxPixels = MAX_IMAGE_PIXELS;
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    super(`${width}x${height} is over the cap of ${MAX_IMAGE_PIXELS} pixels`);
    this.name = 'ImageTooLargeError';
  }
}

/** Thrown for a readable file that holds no still picture (an image sequence without one). */
export class NoStillImageError extends Error {
  constructor() {
    super('the file holds an image sequence without a still picture');
    this.name = 'NoStillImageError';
  }
}

/** The cap in words, for messages: "100 megapixels". */
export const PIXEL_CAP_TEXT = `${MAX_IMAGE_PIXELS / 1_000_000} megapixels`;

/** The renditions an uploaded picture becomes. */
export interface ImagePlan {
  /**
   * The large rendition: its longest side, and its format: `as-sent` keeps JPEG, PNG, WebP and
   * GIF (browsers show them) and makes HEIF and AVIF a JPEG (a WebP when transparent or
   * animated).
   */
  large: { maxSide: number; format: 'as-sent' | 'webp'; quality?: number };
  /** The small one (WebP), made from the large one: a thumbnail, or a square avatar. */
  small: { maxSide: number; square?: boolean; quality?: number };
  /**
   * Whether an animated GIF, WebP or AVIF keeps its frames in the large rendition, within the
   * animation budget (else its first frame is used). The small one is always the first frame.
   */
  keepAnimation: boolean;
  /**
   * A full-resolution master too (decision 149), at this quality: upright, sRGB, no metadata.
   * An animation's master is its large rendition (`master` is then the same object), and so is
   * that of a picture the large rendition holds whole in the same format.
   */
  master?: { quality: number };
}

/** What `render` makes: the large and small renditions, and the master when planned. */
export interface RenderedImage {
  large: Rendition;
  small: Rendition;
  master?: Rendition;
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
   * truncated file throws UnreadableImageError, one over the pixel cap ImageTooLargeError),
   * upright, in sRGB, without any metadata (EXIF, GPS, XMP, ICC).
   */
  render(input: string | Buffer, type: SniffedType, plan: ImagePlan): Promise<RenderedImage>;
}

type Format = 'jpeg' | 'png' | 'webp' | 'gif';

/** Formats browsers show, kept as sent. */
const SHOWN_AS_SENT: Record<string, Format> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

/** HEIF decoded by libheif (WebAssembly); AVIF is read by sharp itself. */
const HEIF_TYPES = new Set([
  'image/heic',
  'image/heif',
  'image/heic-sequence',
  'image/heif-sequence',
]);
const ANIMATABLE_TYPES = new Set(['image/gif', 'image/webp', 'image/avif']);

/** The large rendition's format: as sent where browsers show it, else JPEG or (alpha, frames) WebP. */
function largeFormat(
  type: SniffedType,
  plan: ImagePlan,
  alpha: boolean,
  animated: boolean,
): Format {
  if (plan.large.format === 'webp') return 'webp';
  return SHOWN_AS_SENT[type.mime] ?? (alpha || animated ? 'webp' : 'jpeg');
}

/**
 * The master's format: as sent for JPEG, PNG, WebP and GIF; HEIF and AVIF become a JPEG, or a
 * PNG when transparent (WebP stops at 16,383 pixels a side, a master may be larger).
 */
const masterFormat = (type: SniffedType, alpha: boolean): Format =>
  SHOWN_AS_SENT[type.mime] ?? (alpha ? 'png' : 'jpeg');

/** What a picture is read from, once decoded where sharp cannot: its file, or a HEIF's TIFF. */
interface Source {
  input: string | Buffer;
  alpha: boolean;
  /** The longest side, in pixels. */
  longSide: number;
}

/**
 * The one image pipeline of the app, for memories and speaker pictures alike: pictures decoded
 * and rendered one per core (more would not finish sooner, and each holds a decoded photo: 36 MB
 * for 12 megapixels), HEIF in a worker thread, through a queue fair to still
 * photos that refuses a picture once its wait would pass `maxWaitMs` (`ImageQueueFullError`).
 * What the HEIF decoder prints goes to `log`.
 */
export function createImagePipeline(options: {
  maxWaitMs: number;
  log?: (said: string[]) => void;
}): ImagePipeline {
  // A HEIF decode (one thread of WebAssembly) is part of a render: the queue's workers bound
  // them too, one per core.
  const queue = new ImageQueue({
    slots: os.availableParallelism(),
    maxWaitMs: options.maxWaitMs,
  });

  const fromHeif = (decoded: DecodedHeif): Source => ({
    input: decoded.tiff,
    alpha: decoded.alpha,
    longSide: Math.max(decoded.width, decoded.height),
  });

  /** A HEIF file's primary image, as a TIFF sharp reads (pixels, ICC profile, alpha). */
  async function decodeHeif(input: string | Buffer): Promise<Source> {
    const bytes = typeof input === 'string' ? await fs.readFile(input) : input;
    const viaSharp = async (): Promise<Source> => {
      const { alpha, width, height } = await framesOf(bytes);
      return { input: bytes, alpha, longSide: Math.max(width, height) };
    };
    if (sharpDecodesHevc()) {
      const fromSharp = await viaSharp().catch(() => undefined);
      if (fromSharp) return fromSharp;
    }
    try {
      return fromHeif(await decodeHeicInWorker(bytes, options.log));
    } catch (error) {
      if (error instanceof HeifDecodeError && error.reason === 'too-large') {
        throw new ImageTooLargeError(error.width, error.height);
      }
      if (error instanceof HeifDecodeError && error.reason === 'no-still-image') {
        throw new NoStillImageError();
      }
      // HEIF coded with AV1 under a HEIF brand: sharp's libvips reads it, libheif-js does not.
      if (error instanceof HeifDecodeError && /compression format/.test(error.message)) {
        return viaSharp().catch(() => {
          throw new UnreadableImageError(error);
        });
      }
      throw new UnreadableImageError(error);
    }
  }

  /** Where sharp reads the picture from, checked against the pixel cap from its header. */
  async function sourceOf(input: string | Buffer, type: SniffedType): Promise<Source> {
    if (HEIF_TYPES.has(type.mime)) return decodeHeif(input);
    const header = await framesOf(input).catch((error: unknown) => {
      throw isPixelCapError(error) ? error : new UnreadableImageError(error);
    });
    if (header.width * header.height > MAX_IMAGE_PIXELS) {
      throw new ImageTooLargeError(header.width, header.height);
    }
    return { input, alpha: header.alpha, longSide: Math.max(header.width, header.height) };
  }

  async function renderNow(
    input: string | Buffer,
    type: SniffedType,
    plan: ImagePlan,
    frames: number,
  ): Promise<RenderedImage> {
    try {
      const source = await sourceOf(input, type);
      const animated = frames > 1;
      const format = largeFormat(type, plan, source.alpha, animated);
      // A picture that fits the large rendition in the same format is its own master: one file.
      const ownMaster =
        animated ||
        (source.longSide <= plan.large.maxSide && masterFormat(type, source.alpha) === format);
      // The master first: decoding the whole picture at full size is what proves it whole.
      const master =
        plan.master && !ownMaster
          ? await renderImage(source.input, {
              format: masterFormat(type, source.alpha),
              quality: plan.master.quality,
              // libjpeg-turbo's own encoder: twice as fast as mozjpeg at full size.
              mozjpeg: false,
            })
          : undefined;
      const large = await renderImage(source.input, {
        maxSide: plan.large.maxSide,
        format,
        quality: plan.large.quality ?? 85,
        animated,
        frames,
      });
      // The thumbnail is the first frame: a grid of animated tiles would cost every phone too.
      const small = await renderImage(large.data, {
        maxSide: plan.small.maxSide,
        format: 'webp',
        quality: plan.small.quality ?? 75,
        square: plan.small.square ?? false,
      });
      return plan.master ? { large, small, master: master ?? large } : { large, small };
    } catch (error) {
      if (error instanceof ImageTooLargeError || error instanceof NoStillImageError) throw error;
      if (error instanceof UnreadableImageError) throw error;
      if (isPixelCapError(error)) throw new ImageTooLargeError(0, 0);
      throw new UnreadableImageError(error);
    }
  }

  /** How many frames the large rendition keeps: 1 for a still picture. */
  async function framesToKeep(
    input: string | Buffer,
    type: SniffedType,
    plan: ImagePlan,
  ): Promise<number> {
    if (!plan.keepAnimation || !ANIMATABLE_TYPES.has(type.mime)) return 1;
    try {
      const source = await framesOf(input);
      return source.frames > 1 ? animationFrames(source, plan.large.maxSide) : 1;
    } catch (error) {
      if (isPixelCapError(error)) throw new ImageTooLargeError(0, 0);
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
