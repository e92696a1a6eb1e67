import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { ACCEPTED_IMAGE_TYPES, ACCEPTED_VIDEO_TYPES } from '../../shared/constants.ts';

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
  /** Longest side in pixels; smaller images are not enlarged. */
  maxSide: number;
  format: 'webp' | 'jpeg' | 'png' | 'gif';
  /** Crop to a centred square of `maxSide` (avatars). */
  square?: boolean;
  quality?: number;
  /** Keep the frames of an animated GIF or WebP (frames carry no EXIF orientation). */
  animated?: boolean;
  /** With `animated`, how many frames to keep from the first (all when absent). */
  frames?: number;
}

/** Decoded pixels (e.g. from the HEIC decoder), already upright and free of metadata. */
export interface RawImage {
  raw: { data: Uint8Array; width: number; height: number; channels: 3 | 4 };
}

const MAX_INPUT_PIXELS = 100_000_000;

/** An image's frames (more than one: an animated GIF or WebP) and the size of one frame. */
export async function framesOf(
  input: Buffer | string,
): Promise<{ frames: number; width: number; height: number }> {
  const {
    pages = 1,
    width,
    height,
    pageHeight,
  } = await sharp(input, {
    failOn: 'error',
    limitInputPixels: MAX_INPUT_PIXELS,
  }).metadata();
  return { frames: pages, width, height: pageHeight ?? height };
}

/**
 * Decodes an image (whole, so corrupt or truncated files fail here), applies its EXIF
 * orientation, drops every metadata block (EXIF, GPS, XMP) and encodes one rendition.
 */
export async function renderImage(
  input: Buffer | string | RawImage,
  { maxSide, format, square = false, quality = 82, animated = false, frames }: RenditionOptions,
): Promise<Rendition> {
  let pipeline =
    typeof input === 'string' || Buffer.isBuffer(input)
      ? sharp(input, {
          failOn: 'error',
          limitInputPixels: MAX_INPUT_PIXELS,
          ...(animated ? { pages: frames ?? -1 } : {}),
        })
      : sharp(
          Buffer.from(input.raw.data.buffer, input.raw.data.byteOffset, input.raw.data.byteLength),
          {
            raw: { width: input.raw.width, height: input.raw.height, channels: input.raw.channels },
            limitInputPixels: MAX_INPUT_PIXELS,
          },
        );
  if (!animated) pipeline = pipeline.rotate();
  pipeline = square
    ? pipeline.resize(maxSide, maxSide, {
        fit: 'cover',
        position: 'attention',
        withoutEnlargement: false,
      })
    : pipeline.resize(maxSide, maxSide, { fit: 'inside', withoutEnlargement: true });
  pipeline =
    format === 'webp'
      ? pipeline.webp({ quality })
      : format === 'png'
        ? pipeline.png()
        : format === 'gif'
          ? pipeline.gif()
          : pipeline.jpeg({ quality, mozjpeg: true });
  const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
  const ext = format === 'jpeg' ? 'jpg' : format;
  // An animated result stacks its frames: one frame is `pageHeight` tall.
  const height = info.pageHeight ?? info.height;
  return { data, width: info.width, height, contentType: `image/${format}`, ext };
}
