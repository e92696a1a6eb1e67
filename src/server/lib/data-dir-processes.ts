import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { newId } from './ids.ts';

/** How often a process says it is alive; one silent three times as long is taken for dead. */
const HEARTBEAT_MS = 10_000;
const DEAD_AFTER_MS = 3 * HEARTBEAT_MS;

interface Entry {
  pid: number;
  host: string;
}

/** Whether a process of this machine is running (EPERM: it is, as another user). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The processes serving one data directory, each a file under `DATA_DIR/processes/` touched every
 * 10 s. Two processes share a directory during a rolling deploy (the new one starts before the
 * old one stops); what one finds there that no row names may be the other's upload in flight.
 * A process is taken for alive while its file is fresh and, on this machine, its pid runs.
 */
export class DataDirProcesses {
  readonly #dir: string;
  readonly #file: string;
  readonly #timer: NodeJS.Timeout;
  /** When this process started: whatever was made before it, it does not hold. */
  readonly startedAt = Date.now();

  private constructor(dir: string, file: string) {
    this.#dir = dir;
    this.#file = file;
    this.#timer = setInterval(() => {
      const now = new Date();
      fs.utimes(this.#file, now, now).catch(() => undefined);
    }, HEARTBEAT_MS);
    this.#timer.unref();
  }

  static async register(dataDir: string): Promise<DataDirProcesses> {
    const dir = path.join(dataDir, 'processes');
    await fs.mkdir(dir, { recursive: true });
    const file = path.join(dir, `${newId()}.json`);
    const entry: Entry = { pid: process.pid, host: os.hostname() };
    await fs.writeFile(file, JSON.stringify(entry));
    return new DataDirProcesses(dir, file);
  }

  /** Whether another process serving this directory is alive now (the dead ones' files go). */
  async othersAlive(): Promise<boolean> {
    let names: string[];
    try {
      names = await fs.readdir(this.#dir);
    } catch {
      return false;
    }
    let alive = false;
    for (const name of names) {
      const file = path.join(this.#dir, name);
      if (file === this.#file) continue;
      try {
        const stats = await fs.stat(file);
        let live = Date.now() - stats.mtimeMs < DEAD_AFTER_MS;
        if (live) {
          try {
            const entry = JSON.parse(await fs.readFile(file, 'utf8')) as Partial<Entry>;
            if (entry.host === os.hostname() && typeof entry.pid === 'number') {
              live = running(entry.pid);
            }
          } catch {
            // Being written right now: a process that is starting.
          }
        }
        if (live) alive = true;
        else await fs.rm(file, { force: true });
      } catch {
        // Removed meanwhile: that process has stopped.
      }
    }
    return alive;
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await fs.rm(this.#file, { force: true });
  }
}

/**
 * Removes the files directly in `dir` last written before `cutoff` (ms since 1970); answers how
 * many. For folders of temporary files (uploads being received or processed).
 */
export async function removeFilesWrittenBefore(dir: string, cutoff: number): Promise<number> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      const stats = await fs.stat(file);
      if (!stats.isFile() || stats.mtimeMs >= cutoff) continue;
      await fs.rm(file, { force: true });
      removed += 1;
    } catch {
      // Gone meanwhile.
    }
  }
  return removed;
}
