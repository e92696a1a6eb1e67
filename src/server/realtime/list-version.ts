import { versionTag } from '../http/conditional-get.ts';
import type { ChangeFeed, ChangeTopic } from './change-feed.ts';

/**
 * What decides whether a list changed: its newest id and its row count, and a `revision` for
 * lists whose rows can change in place (a memory's file replaced by its cleaned copy).
 */
export type ListVersionReader = () => Promise<{
  newestId: string | null;
  count: number;
  revision?: number;
}>;

/**
 * The version of a polled list (the gallery, the speakers), derived from the database and kept
 * in memory, so a poll is answered 304 without asking the database or serialising anything.
 * Every instance computes the same tag from the same data; a change made on any instance
 * reaches the others through the change feed.
 */
export class ListVersion {
  readonly #topic: ChangeTopic;
  readonly #read: ListVersionReader;
  readonly #feed: ChangeFeed;
  readonly #commitsElsewhere: (() => number) | undefined;
  #state = '';

  /**
   * `commitsElsewhere` (SQLite) counts the commits other connections made to the database file:
   * a row stored behind this process's back (another process, a script) changes the tag too.
   */
  constructor(
    topic: ChangeTopic,
    read: ListVersionReader,
    feed: ChangeFeed,
    commitsElsewhere?: () => number,
  ) {
    this.#topic = topic;
    this.#read = read;
    this.#feed = feed;
    this.#commitsElsewhere = commitsElsewhere;
    feed.subscribe(topic, () => {
      this.refresh().catch(() => undefined);
    });
  }

  /** Reads the version from the database (at start, and after every change). */
  async refresh(): Promise<void> {
    const { newestId, count, revision } = await this.#read();
    this.#state = `${count}.${newestId ?? ''}${revision === undefined ? '' : `.${revision}`}`;
  }

  /** After a write or delete here: refresh before answering, then tell the other instances. */
  async changed(): Promise<void> {
    await this.refresh();
    await this.#feed.publish(this.#topic);
  }

  /** The ETag of one view of the list (a page, a query) at the current version. */
  etag(...view: (string | number | undefined)[]): string {
    const elsewhere = this.#commitsElsewhere;
    return versionTag(
      elsewhere
        ? [this.#topic, this.#state, elsewhere(), ...view]
        : [this.#topic, this.#state, ...view],
    );
  }
}
