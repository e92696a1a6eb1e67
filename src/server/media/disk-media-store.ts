import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { newId } from '../lib/ids.ts';
import {
  type ByteRange,
  type MediaStore,
  type StoredObject,
  isValidMediaKey,
} from './media-store.ts';

/** Media on the local disk under `root`; writes go to a temporary file, then are renamed. */
export class DiskMediaStore implements MediaStore {
  readonly #root: string;
  readonly #tmp: string;

  constructor(root: string) {
    this.#root = path.resolve(root);
    this.#tmp = path.join(this.#root, '.tmp');
    fs.mkdirSync(this.#tmp, { recursive: true });
  }

  #pathOf(key: string): string {
    if (!isValidMediaKey(key)) throw new Error(`Invalid media key: ${key}`);
    return path.join(this.#root, key);
  }

  put(key: string, body: Readable | Buffer, _contentType?: string): Promise<StoredObject> {
    return this.#write(key, (temporary) =>
      pipeline(
        Buffer.isBuffer(body) ? Readable.from([body]) : body,
        fs.createWriteStream(temporary, { flags: 'wx' }),
      ),
    );
  }

  /** The file copied in the kernel (no byte passes through the process), then renamed. */
  putFile(key: string, file: string, _contentType?: string): Promise<StoredObject> {
    return this.#write(key, (temporary) =>
      fsp.copyFile(file, temporary, fs.constants.COPYFILE_EXCL),
    );
  }

  /** Writes a temporary file with `write`, then renames it to the key's path. */
  async #write(key: string, write: (temporary: string) => Promise<void>): Promise<StoredObject> {
    const target = this.#pathOf(key);
    const temporary = path.join(this.#tmp, `${newId()}.part`);
    try {
      await write(temporary);
      await fsp.mkdir(path.dirname(target), { recursive: true });
      await fsp.rename(temporary, target);
      const { size } = await fsp.stat(target);
      return { size };
    } catch (error) {
      await fsp.rm(temporary, { force: true });
      throw error;
    }
  }

  async stat(key: string): Promise<StoredObject | null> {
    try {
      const stats = await fsp.stat(this.#pathOf(key));
      return stats.isFile() ? { size: stats.size } : null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  read(key: string, range?: ByteRange): Promise<Readable> {
    const file = this.#pathOf(key);
    return new Promise((resolve, reject) => {
      const stream = fs.createReadStream(file, range ? { start: range.start, end: range.end } : {});
      stream.once('open', () => resolve(stream));
      stream.once('error', reject);
    });
  }

  async *list(prefix: string): AsyncIterable<string> {
    let entries: fs.Dirent[];
    try {
      entries = await fsp.readdir(this.#root, { recursive: true, withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const key = path
        .relative(this.#root, path.join(entry.parentPath, entry.name))
        .split(path.sep)
        .join('/');
      if (key.startsWith(prefix) && isValidMediaKey(key)) yield key;
    }
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.#pathOf(key), { force: true });
  }

  /** Writes and removes a small file: a full or read-only disk fails here, not only later. */
  async check(): Promise<void> {
    const probe = path.join(this.#tmp, `${newId()}.probe`);
    try {
      await fsp.writeFile(probe, 'health check\n', { flag: 'wx' });
    } finally {
      await fsp.rm(probe, { force: true }).catch(() => undefined);
    }
  }

  /**
   * Where writes in progress are (removed by the orphan sweeper once provably abandoned: a
   * process that died mid-write leaves them).
   */
  get temporaryDir(): string {
    return this.#tmp;
  }
}
