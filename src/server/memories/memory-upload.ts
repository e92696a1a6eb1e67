import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ACCEPTED_FORMAT_NAMES } from '../../shared/constants.ts';
import type { MemoryPostFields } from '../../shared/schemas/memory.ts';
import { HttpError } from '../http/errors.ts';
import type { UploadedFile } from '../http/multipart.ts';
import { newId } from '../lib/ids.ts';
import { type SniffedType, sniffType } from '../media/images.ts';
import type { MediaStore } from '../media/media-store.ts';
import { MalformedVideoError, stripVideoMetadata } from '../media/video-metadata.ts';
import {
  type ImagePipeline,
  type ImagePlan,
  UnreadableImageError,
} from '../media/image-pipeline.ts';

/** One stored file of a post, ready to become a memory row. */
export interface StoredFile {
  mediaKey: string;
  thumbnailKey: string | null;
  contentType: string;
  width: number | null;
  height: number | null;
  sizeBytes: number;
  /** Whether the stored file is free of location and camera metadata (always, for new uploads). */
  metadataStripped: boolean;
}

export interface ReceivedPost {
  fields: MemoryPostFields;
  files: StoredFile[];
  /** Removes every stored file of the post (when it cannot be saved after all). */
  discard(): Promise<void>;
}

export interface UploadContext {
  media: MediaStore;
  /** Local folder for images and videos being processed; emptied at start. */
  stagingDir: string;
  images: ImagePipeline;
}

/**
 * A memory's pictures: the display rendition (at most 2048 px long, in the format sent where
 * browsers show it) and the gallery thumbnail (about 480 px, WebP). Animations keep their frames.
 */
const MEMORY_IMAGE: ImagePlan = {
  large: { maxSide: 2048, format: 'as-sent', quality: 85 },
  small: { maxSide: 480, quality: 75 },
  keepAnimation: true,
};

const unsupported = (name: string) =>
  new HttpError(
    415,
    `${name} is not a supported image or video. Supported formats: ${ACCEPTED_FORMAT_NAMES.join(', ')}.`,
  );

/** One uploaded file, staged on disk while it is processed. */
interface Staged {
  file: string;
  type: SniffedType;
  /** The file's name, fit to quote in a message. */
  name: string;
  context: UploadContext;
  /** Keys stored so far for the post; what this file stores is added as it is written. */
  stored: string[];
}

/** A file that looked like its type but cannot be read whole: a 400 naming it. */
const damaged = (name: string, kind: 'image' | 'video') =>
  new HttpError(400, `${name} could not be read: the ${kind} is damaged or incomplete.`);

/** An image: rendered (upright, without metadata) into its display rendition and thumbnail. */
async function storeImage({ file, type, name, context, stored }: Staged): Promise<StoredFile> {
  const image = await context.images.render(file, type, MEMORY_IMAGE).catch((error: unknown) => {
    throw error instanceof UnreadableImageError ? damaged(name, 'image') : error;
  });
  const id = newId();
  const { large: display, small: thumbnail } = image;
  const mediaKey = `memories/${id}.${display.ext}`;
  const thumbnailKey = `memories/${id}-thumb.${thumbnail.ext}`;
  stored.push(mediaKey);
  await context.media.put(mediaKey, display.data, display.contentType);
  stored.push(thumbnailKey);
  await context.media.put(thumbnailKey, thumbnail.data, thumbnail.contentType);
  return {
    mediaKey,
    thumbnailKey,
    contentType: display.contentType,
    width: display.width,
    height: display.height,
    sizeBytes: display.data.length,
    metadataStripped: true,
  };
}

/**
 * A video: its metadata blanked in place, never re-encoded, no media byte moved (decision 095),
 * then streamed from the staged file into the store.
 */
async function storeVideo({ file, type, name, context, stored }: Staged): Promise<StoredFile> {
  await stripVideoMetadata(file).catch((error: unknown) => {
    throw error instanceof MalformedVideoError ? damaged(name, 'video') : error;
  });
  const mediaKey = `memories/${newId()}.${type.ext}`;
  stored.push(mediaKey);
  const { size } = await context.media.put(mediaKey, fs.createReadStream(file), type.mime);
  return {
    mediaKey,
    thumbnailKey: null,
    contentType: type.mime,
    width: null,
    height: null,
    sizeBytes: size,
    metadataStripped: true,
  };
}

/**
 * Stores one file of a memory post as its bytes arrive: its type decided from its first bytes,
 * an image rendered (upright, without metadata, display and thumbnail), a video stored with its
 * metadata blanked. The keys it stores are added to `stored` as they are written, so a refusal
 * later in the post can remove them.
 */
export async function storeMemoryFile(
  file: UploadedFile,
  context: UploadContext,
  stored: string[],
): Promise<StoredFile> {
  if (file.head.length === 0) throw new HttpError(400, `${file.name} is empty.`);
  const type = await sniffType(file.head);
  if (!type) throw unsupported(file.name);
  // Staged on disk (never whole in memory) while it is processed, then removed.
  const staged = path.join(context.stagingDir, `${newId()}.${type.ext}`);
  try {
    await pipeline(Readable.from(file.body), fs.createWriteStream(staged, { flags: 'wx' }));
    const job = { file: staged, type, name: file.name, context, stored };
    return await (type.kind === 'image' ? storeImage(job) : storeVideo(job));
  } finally {
    await fsp.rm(staged, { force: true });
  }
}

/** Stores one file of a post as it arrives (see `storeMemoryFile`). */
export type StoreFile = (file: UploadedFile) => Promise<void>;

/**
 * Receives one memory post, whichever way its bytes come (a multipart form, a finished resumable
 * upload): `read` hands each file to `storeFile` as it arrives and answers the post's text
 * fields. All or nothing: on any refusal, or a post without a file, what was already stored is
 * removed before the error goes on.
 */
export async function receiveMemoryPost(
  context: UploadContext,
  read: (storeFile: StoreFile) => Promise<MemoryPostFields>,
): Promise<ReceivedPost> {
  const stored: string[] = [];
  const discard = async () => {
    await Promise.all(stored.map((key) => context.media.delete(key)));
  };
  const files: StoredFile[] = [];
  try {
    const fields = await read(async (file) => {
      files.push(await storeMemoryFile(file, context, stored));
    });
    if (files.length === 0) {
      throw new HttpError(400, 'Add at least one image or video.', 'VALIDATION');
    }
    return { fields, files, discard };
  } catch (error) {
    await discard();
    throw error;
  }
}
