import fs from 'node:fs';
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  NotFound,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { Config } from '../config.ts';
import {
  type ByteRange,
  type MediaStore,
  type StoredObject,
  MediaStoreUnavailableError,
  isValidMediaKey,
} from './media-store.ts';

/** The S3 part of the configuration (see config.ts). */
export type S3Settings = Config['s3'];

const PART_SIZE = 5 * 1024 * 1024;

/** Any failure of the store but "no such object" is the store's: a 503, not a 500. */
async function storeCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isNotFound(error) || error instanceof MediaStoreUnavailableError) throw error;
    throw new MediaStoreUnavailableError(error);
  }
}

const isNotFound = (error: unknown) =>
  error instanceof NotFound ||
  (error instanceof S3ServiceException &&
    (error.$metadata.httpStatusCode === 404 || error.name === 'NoSuchKey'));

/**
 * Media in any S3-compatible object store. Uploads stream as multipart uploads of 5 MB parts (at
 * most two in memory at once); an upload that fails is aborted, so no object appears.
 */
export class S3MediaStore implements MediaStore {
  readonly #client: S3Client;
  readonly #bucket: string;

  constructor(settings: S3Settings) {
    this.#bucket = settings.bucket;
    this.#client = new S3Client({
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      // A store that does not answer fails the call (503) instead of holding it forever.
      requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
      ...(settings.accessKeyId && settings.secretAccessKey
        ? {
            credentials: {
              accessKeyId: settings.accessKeyId,
              secretAccessKey: settings.secretAccessKey,
            },
          }
        : {}),
    });
  }

  #key(key: string): string {
    if (!isValidMediaKey(key)) throw new Error(`Invalid media key: ${key}`);
    return key;
  }

  async put(key: string, body: Readable | Buffer, contentType: string): Promise<StoredObject> {
    const upload = new Upload({
      client: this.#client,
      params: { Bucket: this.#bucket, Key: this.#key(key), Body: body, ContentType: contentType },
      partSize: PART_SIZE,
      queueSize: 2,
      leavePartsOnError: false,
    });
    await storeCall(() => upload.done());
    const stored = await this.stat(key);
    if (!stored) throw new MediaStoreUnavailableError(new Error(`${key} is missing after upload`));
    return stored;
  }

  putFile(key: string, file: string, contentType: string): Promise<StoredObject> {
    return this.put(key, fs.createReadStream(file), contentType);
  }

  async stat(key: string): Promise<StoredObject | null> {
    const Key = this.#key(key);
    try {
      const head = await storeCall(() =>
        this.#client.send(new HeadObjectCommand({ Bucket: this.#bucket, Key })),
      );
      return { size: head.ContentLength ?? 0 };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const Key = this.#key(key);
    const object = await storeCall(() =>
      this.#client.send(
        new GetObjectCommand({
          Bucket: this.#bucket,
          Key,
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      ),
    );
    if (!(object.Body instanceof Readable)) throw new Error(`Object ${key} has no body`);
    if (!range) return object.Body;
    // Some S3-compatible stores ignore a range they find odd (`bytes=0-0`) and send the whole
    // object; the answer's Content-Length promises the range, so cut it out here.
    const length = range.end - range.start + 1;
    const served = /^bytes (\d+)-(\d+)\//.exec(object.ContentRange ?? '');
    if (served && Number(served[1]) === range.start && Number(served[2]) === range.end) {
      return object.Body;
    }
    return Readable.from(sliceBytes(object.Body, served ? 0 : range.start, length));
  }

  async *list(prefix: string): AsyncIterable<string> {
    let token: string | undefined;
    do {
      const page = await storeCall(() =>
        this.#client.send(
          new ListObjectsV2Command({
            Bucket: this.#bucket,
            Prefix: prefix,
            ContinuationToken: token,
          }),
        ),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key && isValidMediaKey(object.Key)) yield object.Key;
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async delete(key: string): Promise<void> {
    const Key = this.#key(key);
    await storeCall(() =>
      this.#client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key })),
    );
  }

  async check(): Promise<void> {
    await this.#client.send(new HeadBucketCommand({ Bucket: this.#bucket }));
  }

  close(): void {
    this.#client.destroy();
  }
}

/** The `length` bytes of a stream after its first `skip` bytes; the rest is not read. */
async function* sliceBytes(body: Readable, skip: number, length: number): AsyncGenerator<Buffer> {
  let toSkip = skip;
  let left = length;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      let bytes = chunk;
      if (toSkip > 0) {
        const skipped = Math.min(toSkip, bytes.length);
        toSkip -= skipped;
        bytes = bytes.subarray(skipped);
      }
      if (bytes.length === 0) continue;
      const taken = bytes.subarray(0, left);
      left -= taken.length;
      yield taken;
      if (left === 0) return;
    }
  } finally {
    body.destroy();
  }
}
