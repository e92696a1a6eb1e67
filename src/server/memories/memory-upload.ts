import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Multipart, MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { ACCEPTED_FORMAT_NAMES, MAX_FILES_PER_POST, MEMORY_TEXTS } from '../../shared/constants.ts';
import {
  MEMORY_FILE_FIELDS,
  type MemoryPostFields,
  memoryPostFieldsSchema,
} from '../../shared/schemas/memory.ts';
import { HttpError } from '../http/errors.ts';
import { newId } from '../lib/ids.ts';
import type { LimitFunction } from 'p-limit';
import { type SniffedType, sniffType } from '../media/images.ts';
import type { MediaStore } from '../media/media-store.ts';
import { MalformedVideoError, stripVideoMetadata } from '../media/video-metadata.ts';
import { UnreadableImageError, renderMemoryImage } from './memory-media.ts';

/** Bytes read before deciding a file's type (file-type needs at most 4100). */
const HEAD_BYTES = 4100;
/** Bytes a text field may carry: a 2,000-character caption in any script fits. */
const FIELD_BYTES = 16 * 1024;

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
  /** Per-file limit in bytes (MAX_UPLOAD_MB). */
  maxFileBytes: number;
  /** The same limit in megabytes, as the messages name it. */
  maxFileMb: number;
  /** Local folder for images and videos being processed; emptied at start. */
  stagingDir: string;
  heicLimiter: LimitFunction;
  /** Images rendered at once: each holds a decoded photo in memory (tens of MB). */
  imageLimiter: LimitFunction;
}

/** A file name fit to quote in a message: no path, no control characters, not too long. */
export function displayName(filename: string | undefined): string {
  const base = (filename ?? '').split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  if (!clean) return 'file';
  return clean.length > 80 ? `${clean.slice(0, 77)}...` : clean;
}

const unsupported = (name: string) =>
  new HttpError(
    415,
    `${name} is not a supported image or video. Supported formats: ${ACCEPTED_FORMAT_NAMES.join(', ')}.`,
  );

/**
 * Reads the first bytes of an upload to decide its type, and gives back the whole stream
 * (those bytes first). The stream fails with a 413 as soon as the size limit is passed.
 */
async function openUpload(
  part: MultipartFile,
  name: string,
  context: UploadContext,
): Promise<{ head: Buffer; body: AsyncIterable<Buffer> }> {
  const file = part.file;
  const iterator = file[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const tooLarge = () => new HttpError(413, MEMORY_TEXTS.tooLarge(name, context.maxFileMb));
  const chunks: Buffer[] = [];
  let length = 0;
  let ended = false;
  while (length < HEAD_BYTES) {
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      break;
    }
    chunks.push(next.value);
    length += next.value.length;
  }
  const head = Buffer.concat(chunks);
  async function* body(): AsyncGenerator<Buffer> {
    yield head;
    while (!ended) {
      const next = await iterator.next();
      if (next.done) break;
      if (file.truncated) throw tooLarge();
      yield next.value;
    }
    if (file.truncated) throw tooLarge();
  }
  if (file.truncated) throw tooLarge();
  return { head, body: body() };
}

async function storeImage(
  body: AsyncIterable<Buffer>,
  type: SniffedType,
  name: string,
  context: UploadContext,
  stored: string[],
): Promise<StoredFile> {
  const staged = path.join(context.stagingDir, `${newId()}.${type.ext}`);
  try {
    await pipeline(Readable.from(body), fs.createWriteStream(staged, { flags: 'wx' }));
    let image;
    try {
      image = await context.imageLimiter(() =>
        renderMemoryImage(staged, type, context.heicLimiter),
      );
    } catch (error) {
      if (error instanceof UnreadableImageError) {
        throw new HttpError(400, `${name} could not be read: the image is damaged or incomplete.`);
      }
      throw error;
    }
    const id = newId();
    const { display, thumbnail } = image;
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
  } finally {
    await fsp.rm(staged, { force: true });
  }
}

async function storeVideo(
  body: AsyncIterable<Buffer>,
  type: SniffedType,
  name: string,
  context: UploadContext,
  stored: string[],
): Promise<StoredFile> {
  // Staged on disk (never whole in memory), its metadata blanked in place: never re-encoded, no
  // media byte moved (decision 095). Then streamed from the staged file into the store.
  const staged = path.join(context.stagingDir, `${newId()}.${type.ext}`);
  try {
    await pipeline(Readable.from(body), fs.createWriteStream(staged, { flags: 'wx' }));
    try {
      await stripVideoMetadata(staged);
    } catch (error) {
      if (error instanceof MalformedVideoError) {
        throw new HttpError(400, `${name} could not be read: the video is damaged or incomplete.`);
      }
      throw error;
    }
    const mediaKey = `memories/${newId()}.${type.ext}`;
    stored.push(mediaKey);
    const { size } = await context.media.put(mediaKey, fs.createReadStream(staged), type.mime);
    return {
      mediaKey,
      thumbnailKey: null,
      contentType: type.mime,
      width: null,
      height: null,
      sizeBytes: size,
      metadataStripped: true,
    };
  } finally {
    await fsp.rm(staged, { force: true });
  }
}

/**
 * An error the multipart parser raised about the request (no boundary, a malformed part, a body
 * cut short): a 400, unless it already carries its status (a limit's 413, say).
 */
function unreadable(error: unknown): Error {
  if (error instanceof HttpError) return error;
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (error instanceof Error && typeof status === 'number' && status < 500) return error;
  return new HttpError(400, 'The upload could not be read; send it again.');
}

function parseFields(values: Record<string, string>): MemoryPostFields {
  const parsed = memoryPostFieldsSchema.safeParse(values);
  if (!parsed.success) {
    throw new HttpError(400, parsed.error.issues[0]?.message ?? 'Invalid memory', 'VALIDATION');
  }
  return parsed.data;
}

/**
 * Receives a multipart memory post: text fields `caption` and `username`, files in `files` or
 * `media`. Each file's type is decided from its bytes; images are rendered (upright, without
 * metadata, display and thumbnail), videos stored with their metadata blanked. All or nothing: on any
 * refusal or a cut-off request, what was already stored is removed before the error goes on.
 */
export async function receiveMemoryPost(
  request: FastifyRequest,
  context: UploadContext,
): Promise<ReceivedPost> {
  if (!request.isMultipart()) {
    throw new HttpError(415, 'Send the memory as multipart/form-data.');
  }
  const stored: string[] = [];
  const discard = async () => {
    await Promise.all(stored.map((key) => context.media.delete(key)));
  };
  const values: Record<string, string> = {};
  const files: StoredFile[] = [];
  const requestErrors = new WeakSet<Error>();
  const fileStreams: Readable[] = [];
  // The file stream may have failed before its listener was attached: its `errored` tells.
  const isRequestError = (error: unknown) =>
    error instanceof Error &&
    (requestErrors.has(error) || fileStreams.some((stream) => stream.errored === error));
  let fields: MemoryPostFields | undefined;
  try {
    const parts = request.parts({
      limits: {
        fileSize: context.maxFileBytes,
        files: MAX_FILES_PER_POST + 1,
        fieldSize: FIELD_BYTES,
        fields: 10,
        parts: MAX_FILES_PER_POST + 11,
      },
    });
    const iterator = parts[Symbol.asyncIterator]();
    for (;;) {
      let next: IteratorResult<Multipart>;
      try {
        next = await iterator.next();
      } catch (error) {
        throw unreadable(error);
      }
      if (next.done) break;
      const part = next.value;
      if (part.type === 'field') {
        if (part.valueTruncated) {
          throw new HttpError(400, `${part.fieldname} is too long`, 'VALIDATION');
        }
        if (typeof part.value === 'string') values[part.fieldname] = part.value;
        continue;
      }
      const name = displayName(part.filename);
      if (!(MEMORY_FILE_FIELDS as readonly string[]).includes(part.fieldname)) {
        throw new HttpError(
          400,
          `Unexpected file field "${displayName(part.fieldname)}": send files in "files" or "media".`,
        );
      }
      if (files.length >= MAX_FILES_PER_POST) {
        throw new HttpError(400, `A memory can carry at most ${MAX_FILES_PER_POST} files.`);
      }
      // When the text comes first (as the app sends it), refuse bad text before any upload.
      if (!fields && 'caption' in values && 'username' in values) fields = parseFields(values);

      // Errors of the request's own bytes (a cut-off or malformed body) are the sender's.
      fileStreams.push(part.file);
      part.file.once('error', (error) => requestErrors.add(error));
      const { head, body } = await openUpload(part, name, context);
      if (head.length === 0) throw new HttpError(400, `${name} is empty.`);
      const type = await sniffType(head);
      if (!type) throw unsupported(name);
      files.push(
        type.kind === 'image'
          ? await storeImage(body, type, name, context, stored)
          : await storeVideo(body, type, name, context, stored),
      );
    }
    fields ??= parseFields(values);
    if (files.length === 0) {
      throw new HttpError(400, 'Add at least one image or video.', 'VALIDATION');
    }
    return { fields, files, discard };
  } catch (error) {
    await discard();
    // The rest of the body is read and dropped, so the client gets to read the answer.
    if (!request.raw.readableEnded) {
      request.raw.unpipe();
      request.raw.resume();
    }
    throw isRequestError(error) ? unreadable(error) : error;
  }
}
