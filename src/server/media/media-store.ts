import type { Readable } from 'node:stream';
import { UnavailableError } from '../http/errors.ts';

/**
 * The store itself failed (unreachable, refusing, full): a 503 the client may retry, never a
 * 500. The cause is logged; the client reads only that files cannot be stored right now.
 */
export class MediaStoreUnavailableError extends UnavailableError {
  constructor(cause: unknown) {
    super('storage');
    this.name = 'MediaStoreUnavailableError';
    this.cause = cause;
  }
}

/** A byte range, both ends inclusive, as HTTP ranges are. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface StoredObject {
  size: number;
}

/**
 * Where media bytes live. Keys are made by the app (see `isValidMediaKey`), never taken from a
 * client, so no key can point outside the store.
 */
export interface MediaStore {
  /** Streams `body` into the store under `key`; the object appears whole or not at all. */
  put(key: string, body: Readable | Buffer, contentType: string): Promise<StoredObject>;
  /** Stores a whole file of the local disk under `key` (copied by the kernel where it can be). */
  putFile(key: string, file: string, contentType: string): Promise<StoredObject>;
  /** Size of an object, or null when there is none. */
  stat(key: string): Promise<StoredObject | null>;
  /** A stream of the object's bytes, or of one range of them. */
  read(key: string, range?: ByteRange): Promise<Readable>;
  /** Every key under `prefix` (e.g. `memories/`), for sweeping orphans and for tests. */
  list(prefix: string): AsyncIterable<string>;
  /** Removes an object; removing a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** Throws when the store cannot be used (health check). */
  check(): Promise<void>;
}

const MEDIA_KEY = /^[a-z0-9][a-z0-9-]*(\/[a-z0-9][a-z0-9-]*)*\.[a-z0-9]{2,5}$/;

/** Keys look like `memories/0190f7d2-....webp`: lower-case words, no dots but the extension. */
export const isValidMediaKey = (key: string): boolean => key.length <= 200 && MEDIA_KEY.test(key);
