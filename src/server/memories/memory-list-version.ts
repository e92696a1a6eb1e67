import type { Db } from '../db/database.ts';
import { versionTag } from '../http/conditional-get.ts';
import type { ChangeFeed } from '../realtime/change-feed.ts';
import { memoriesVersion } from './memory.repository.ts';

/**
 * The version of the memory list, derived from the database (its newest id and its row count)
 * and kept in memory, so a gallery poll is answered 304 without asking the database or
 * serialising anything. Every instance computes the same tag from the same data; a change made
 * on any instance reaches the others through the change feed.
 */
export class MemoryListVersion {
  readonly #db: Db;
  readonly #feed: ChangeFeed;
  #state = '';

  constructor(db: Db, feed: ChangeFeed) {
    this.#db = db;
    this.#feed = feed;
    feed.subscribe('memories', () => {
      this.refresh().catch(() => undefined);
    });
  }

  /** Reads the version from the database (at start, and after every change). */
  async refresh(): Promise<void> {
    const { newestId, count } = await memoriesVersion(this.#db);
    this.#state = `${count}.${newestId ?? ''}`;
  }

  /** After a write or delete here: refresh before answering, then tell the other instances. */
  async changed(): Promise<void> {
    await this.refresh();
    await this.#feed.publish('memories');
  }

  /** The ETag of one page of the list at the current version. */
  etag(query: { limit: number; before?: string | undefined }): string {
    return versionTag(['memories', this.#state, query.limit, query.before]);
  }
}
