import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { ACCEPTED_IMAGE_TYPES, ACCEPTED_VIDEO_TYPES } from '../../shared/constants.ts';
import { MAX_IMAGE_PIXELS } from './heic.ts';

// Every upload is a different image: libvips' operation cache would only hold memory.
sharp.cache(false);

export interface SniffedType {
  mime: string;
  ext: string;
  kind: 'image' | 'video';
}

const IMAGE_TYPES: readonly string[] = ACCEPTED_IMAGE_TYPES;
const VIDEO_TYPES: readonly string[] = ACCEPTED_VIDEO_TYPES;

/** The media type decided from the first bytes of a file; undefined when not on the allow-list. */
export async function sniffType(head: Uint8Array): Promise<SniffedType | undefined> {
  const found = await fileTypeFromBuffer(head);
  if (!found) return undefined;
  if (IMAGE_TYPES.includes(found.mime)) return { mime: found.mime, ext: found.ext, kind: 'image' };
  if (VIDEO_TYPES.includes(found.mime)) {
    // file-type names QuickTime "mov"; MP4 variants (m4v) are served as mp4.
    const ext =
      found.mime === 'video/quicktime' ? 'mov' : found.mime === 'video/webm' ? 'webm' : 'mp4';
    return { mime: found.mime, ext, kind: 'video' };
  }
  return undefined;
}

export interface Rendition {
  data: Buffer;
  width: number;
  height: number;
  contentType: string;
  ext: string;
}

export interface RenditionOptions {
  /** Longest side in pixels; smaller images are not enlarged. Absent: full resolution. */
  maxSide?: number;
  format: 'webp' | 'jpeg' | 'png' | 'gif';
  /** Crop to a centred square of `maxSide` (avatars). */
  square?: boolean;
  quality?: number;
  /** Keep the frames of an animated GIF or WebP (frames carry no EXIF orientation). */
  animated?: boolean;
  /** With `animated`, how many frames to keep from the first (all when absent). */
  frames?: number;
}

const MAX_INPUT_PIXELS = MAX_IMAGE_PIXELS;

/** Whether a sharp error says the picture is over the pixel cap. */
export const isPixelCapError = (error: unknown): boolean =>
  error instanceof Error && /exceeds pixel limit/i.test(error.message);

/**
 * An image's frames (more than one: an animated GIF, WebP or AVIF), the size of one frame, and
 * whether it has an alpha channel; read from its header, nothing decoded.
 */
export async function framesOf(
  input: Buffer | string,
): Promise<{ frames: number; width: number; height: number; alpha: boolean }> {
  const {
    pages = 1,
    width,
    height,
    pageHeight,
    hasAlpha,
  } = await sharp(input, {
    failOn: 'error',
    // Only the header is read: the caller compares the size with the cap and says so.
    limitInputPixels: false,
  }).metadata();
  return { frames: pages, width, height: pageHeight ?? height, alpha: hasAlpha };
}

/**
 * Decodes an image (whole, so corrupt or truncated files fail here), applies its EXIF
 * orientation, drops every metadata block (EXIF, GPS, XMP) and encodes one rendition.
 */
export async function renderImage(
  input: Buffer | string,
  {
    maxSide,
    format,
    square = false,
    quality = 82,
    animated = false,
    frames,
    mozjpeg = true,
  }: RenditionOptions & { mozjpeg?: boolean },
): Promise<Rendition> {
  let pipeline = sharp(input, {
    failOn: 'error',
    limitInputPixels: MAX_INPUT_PIXELS,
    ...(animated ? { pages: frames ?? -1 } : {}),
  });
  if (!animated) pipeline = pipeline.rotate();
  // sharp converts to sRGB with the picture's embedded ICC profile (Display P3, Adobe RGB)
  // and writes none: sRGB is what every browser assumes (decision 147).
  if (maxSide !== undefined) {
    pipeline = square
      ? pipeline.resize(maxSide, maxSide, {
          fit: 'cover',
          position: 'attention',
          withoutEnlargement: false,
        })
      : pipeline.resize(maxSide, maxSide, { fit: 'inside', withoutEnlargement: true });
  }
  pipeline =
    format === 'webp'
      ? pipeline.webp({ quality })
      : format === 'png'
        ? pipeline.png()
        : format === 'gif'
          ? pipeline.gif()
          : pipeline.jpeg({ quality, mozjpeg });
  const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
  const ext = format === 'jpeg' ? 'jpg' : format;
  // An animated result stacks its frames: one frame is `pageHeight` tall.
  const height = info.pageHeight ?? info.height;
  return { data, width: info.width, height, contentType: `image/${format}`, ext };
}
