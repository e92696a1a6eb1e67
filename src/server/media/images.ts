import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { ACCEPTED_IMAGE_TYPES, ACCEPTED_VIDEO_TYPES } from '../../shared/constants.ts';

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
  format: 'webp' | 'jpeg' | 'png';
  /** Crop to a centred square of `maxSide` (avatars). */
  square?: boolean;
  quality?: number;
}

/**
 * Decodes an image (whole, so corrupt or truncated files fail here), applies its EXIF
 * orientation, drops every metadata block (EXIF, GPS, XMP) and encodes one rendition.
 */
export async function renderImage(
  input: Buffer | string,
  { maxSide, format, square = false, quality = 82 }: RenditionOptions,
): Promise<Rendition> {
  let pipeline = sharp(input, { failOn: 'error', limitInputPixels: 100_000_000 }).rotate();
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
        : pipeline.jpeg({ quality, mozjpeg: true });
  const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
  const ext = format === 'jpeg' ? 'jpg' : format;
  return { data, width: info.width, height: info.height, contentType: `image/${format}`, ext };
}
