import fs from 'node:fs/promises';
import { decodeHeicInWorker, sharpDecodesHevc } from '../media/heic.ts';
import {
  type RawImage,
  type Rendition,
  type SniffedType,
  isAnimated,
  renderImage,
} from '../media/images.ts';
import type { LimitFunction } from 'p-limit';

/** Long side of the rendition a memory's `media` URL serves. */
export const DISPLAY_MAX_SIDE = 2048;
/** Long side of the gallery thumbnail. */
export const THUMBNAIL_MAX_SIDE = 480;

export interface MemoryImage {
  display: Rendition;
  thumbnail: Rendition;
}

/** Thrown when a file that looked like an image cannot be decoded whole. */
export class UnreadableImageError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = 'UnreadableImageError';
  }
}

type DisplayFormat = 'jpeg' | 'png' | 'webp' | 'gif';

/** The display format keeps what the person sent where browsers can show it; HEIC becomes JPEG. */
const DISPLAY_FORMAT: Record<string, DisplayFormat> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/heic': 'jpeg',
  'image/heif': 'jpeg',
};

const isHeif = (mime: string) => mime === 'image/heic' || mime === 'image/heif';

async function decodeHeif(file: string, heicLimiter: LimitFunction): Promise<Buffer | RawImage> {
  const bytes = await fs.readFile(file);
  // Prefer sharp where its libvips reads HEVC; else libheif (WebAssembly), one at a time, since
  // a decoded 12-megapixel photo holds about 50 MB. HEIF coded with AV1 is read by sharp.
  const viaWorker = () => heicLimiter(() => decodeHeicInWorker(bytes));
  if (sharpDecodesHevc()) {
    try {
      await renderImage(bytes, { maxSide: 16, format: 'jpeg' });
      return bytes;
    } catch {
      return viaWorker();
    }
  }
  try {
    return await viaWorker();
  } catch (error) {
    try {
      await renderImage(bytes, { maxSide: 16, format: 'jpeg' });
      return bytes;
    } catch {
      throw error;
    }
  }
}

/**
 * Makes the two renditions of an uploaded image, read from the staged file: upright, without
 * any metadata (EXIF, GPS), the display one at most 2048 px long, the thumbnail about 480 px
 * (WebP). Animated GIF and WebP keep their frames. Throws UnreadableImageError for a damaged
 * or truncated file.
 */
export async function renderMemoryImage(
  file: string,
  type: SniffedType,
  heicLimiter: LimitFunction,
): Promise<MemoryImage> {
  const format = DISPLAY_FORMAT[type.mime];
  if (!format) throw new UnreadableImageError(`no rendition for ${type.mime}`);
  try {
    const input = isHeif(type.mime) ? await decodeHeif(file, heicLimiter) : file;
    const animated =
      (type.mime === 'image/gif' || type.mime === 'image/webp') && (await isAnimated(file));
    const display = await renderImage(input, {
      maxSide: DISPLAY_MAX_SIDE,
      format,
      quality: 85,
      animated,
    });
    const thumbnail = await renderImage(display.data, {
      maxSide: THUMBNAIL_MAX_SIDE,
      format: 'webp',
      quality: 75,
      animated,
    });
    return { display, thumbnail };
  } catch (error) {
    throw new UnreadableImageError(error);
  }
}
