import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { MemoryPostFields, RefusedFile } from '../../shared/schemas/memory.ts';
import { badRequest, HttpError, invalid, unsupported } from '../http/errors.ts';
import type { UploadedFile } from '../http/transport/multipart.ts';
import { newId } from '../lib/ids.ts';
import { type SniffedType, sniffType } from '../media/images.ts';
import type { MediaStore } from '../media/media-store.ts';
import { MalformedVideoError, stripVideoMetadata } from '../media/video-metadata.ts';
import type { ImagePipeline, ImagePlan } from '../media/image-pipeline.ts';
import { damaged, imageRefusal } from '../media/image-refusal.ts';
import { UnreadableVideoError, type VideoPipeline } from '../media/video-pipeline.ts';

/** One stored file of a post, ready to become a memory row. */
export interface StoredFile {
  mediaKey: string;
  thumbnailKey: string | null;
  /** The full-resolution, metadata-free master "Download" and the ZIP serve (decision 149). */
  originalKey: string;
  contentType: string;
  width: number | null;
  height: number | null;
  sizeBytes: number;
  /** Whether the stored file is free of location and camera metadata (always, for new uploads). */
  metadataStripped: boolean;
  /** A video's poster (JPEG). */
  posterKey?: string;
  /** A video whose playable rendition is still to be made. */
  processing?: boolean;
}

export interface ReceivedPost {
  fields: MemoryPostFields;
  files: StoredFile[];
  /** Files of the post refused on their own, named, with the reason (decision 144). */
  refused: RefusedFile[];
  /** Removes every stored file of the post (when it cannot be saved after all). */
  discard(): Promise<void>;
}

export interface UploadContext {
  media: MediaStore;
  /** Local folder for images and videos being processed; emptied at start. */
  stagingDir: string;
  images: ImagePipeline;
  videos: VideoPipeline;
}

/**
 * A memory's pictures: the full-resolution master (what "Download" and the ZIP serve), the
 * display rendition (at most 2048 px long, in the format sent where browsers show it) and the
 * gallery thumbnail (about 480 px, WebP). Animations keep their frames.
 */
const MEMORY_IMAGE: ImagePlan = {
  large: { maxSide: 2048, format: 'as-sent', quality: 85 },
  small: { maxSide: 480, quality: 75 },
  keepAnimation: true,
  master: { quality: 92 },
};

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

/**
 * An image: rendered (upright, sRGB, without metadata) into its full-resolution master, its
 * display rendition and its thumbnail. An animation's master is its display rendition.
 */
async function storeImage({ file, type, name, context, stored }: Staged): Promise<StoredFile> {
  const image = await context.images.render(file, type, MEMORY_IMAGE).catch((error: unknown) => {
    throw imageRefusal(name, error);
  });
  const id = newId();
  const { large: display, small: thumbnail, master = display } = image;
  const mediaKey = `memories/${id}.${display.ext}`;
  const thumbnailKey = `memories/${id}-thumb.${thumbnail.ext}`;
  const originalKey = master === display ? mediaKey : `memories/${id}-full.${master.ext}`;
  stored.push(mediaKey);
  await context.media.put(mediaKey, display.data, display.contentType);
  stored.push(thumbnailKey);
  await context.media.put(thumbnailKey, thumbnail.data, thumbnail.contentType);
  if (originalKey !== mediaKey) {
    stored.push(originalKey);
    await context.media.put(originalKey, master.data, master.contentType);
  }
  return {
    mediaKey,
    thumbnailKey,
    originalKey,
    contentType: display.contentType,
    width: display.width,
    height: display.height,
    sizeBytes: display.data.length,
    metadataStripped: true,
  };
}

/**
 * A video: its metadata blanked in place, never re-encoded, no media byte moved (decision 095);
 * read by ffmpeg, which takes its poster (a video ffmpeg cannot read is refused as damaged);
 * then streamed from the staged file into the store, with its poster and tile picture. It is
 * its own media, and its original, until its playable rendition is made (decision 154).
 */
async function storeVideo({ file, type, name, context, stored }: Staged): Promise<StoredFile> {
  await stripVideoMetadata(file).catch((error: unknown) => {
    throw error instanceof MalformedVideoError ? damaged(name, 'video') : error;
  });
  const video = await context.videos.read(file).catch((error: unknown) => {
    throw error instanceof UnreadableVideoError ? damaged(name, 'video') : error;
  });
  const id = newId();
  const mediaKey = `memories/${id}.${type.ext}`;
  const posterKey = `memories/${id}-poster.${video.poster.ext}`;
  const thumbnailKey = `memories/${id}-thumb.${video.thumbnail.ext}`;
  stored.push(mediaKey);
  const { size } = await context.media.putFile(mediaKey, file, type.mime);
  stored.push(posterKey);
  await context.media.put(posterKey, video.poster.data, video.poster.contentType);
  stored.push(thumbnailKey);
  await context.media.put(thumbnailKey, video.thumbnail.data, video.thumbnail.contentType);
  return {
    mediaKey,
    thumbnailKey,
    contentType: type.mime,
    width: video.width,
    height: video.height,
    sizeBytes: size,
    metadataStripped: true,
    originalKey: mediaKey,
    posterKey,
    processing: true,
  };
}

/**
 * Whether an error refuses one file of a post on its own (empty, not an accepted type, damaged,
 * too large), rather than the whole request (bad text, a cut-off body, a storage fault).
 */
export const isFileRefusal = (error: unknown): error is HttpError =>
  error instanceof HttpError && [400, 413, 415].includes(error.statusCode);

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
  if (file.head.length === 0) throw badRequest('empty', file.name);
  const type = await sniffType(file.head);
  if (!type) throw unsupported('memoryFile', file.name);
  // Staged on disk (never whole in memory) while it is processed, then removed.
  const staged = path.join(context.stagingDir, `${newId()}.${type.ext}`);
  try {
    if (file.localPath) {
      await file.skip();
      await fsp.copyFile(file.localPath, staged, fs.constants.COPYFILE_EXCL);
    } else {
      await pipeline(Readable.from(file.body), fs.createWriteStream(staged, { flags: 'wx' }));
    }
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
 * fields. A file refused on its own (empty, unsupported, damaged, too large) is listed in
 * `refused` and the others are kept (decision 144); when none is left, the first refusal is the
 * answer, as for a single file. On any other refusal or a cut-off request, what was already
 * stored is removed before the error goes on.
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
  const refused: { filename: string; error: HttpError }[] = [];
  try {
    const fields = await read(async (file) => {
      try {
        files.push(await storeMemoryFile(file, context, stored));
      } catch (error) {
        if (!isFileRefusal(error)) throw error;
        refused.push({ filename: file.name, error });
        await file.skip();
      }
    });
    if (files.length === 0) {
      throw refused[0]?.error ?? invalid('noFiles');
    }
    return {
      fields,
      files,
      refused: refused.map(({ filename, error }) => ({ filename, error: error.message })),
      discard,
    };
  } catch (error) {
    await discard();
    throw error;
  }
}
