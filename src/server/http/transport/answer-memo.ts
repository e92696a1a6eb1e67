import { bodyTag } from './conditional-get.ts';
import { type Encoding, readAcceptEncoding } from './compression.ts';

/** Tags made lately: the same few lists are polled thousands of times per version. */
const MAX_RECENT_TAGS = 4096;
/** The few `Accept-Encoding` headers browsers send; past this many the memo starts again. */
const MAX_READ_ENCODINGS = 64;

/**
 * What an app remembers from one answer to the next so that polls repeat no work: the ETags it
 * made lately and how each `Accept-Encoding` header was read. One per app (the `answer-memo`
 * plugin), never module-level, so two apps in one process share nothing.
 */
export class AnswerMemo {
  readonly #tags = new Map<string, string>();
  readonly #encodings = new Map<string, Encoding | undefined>();

  /**
   * A weak ETag from the few values that decide a list (its newest id, its row count, the
   * query), so a poll can be answered before any row is read or serialised.
   */
  versionTag(parts: readonly (string | number | null | undefined)[]): string {
    const text = parts
      .map((part) => (part === null || part === undefined ? '' : String(part)))
      .join('\u0000');
    let tag = this.#tags.get(text);
    if (tag === undefined) {
      tag = bodyTag(text);
      if (this.#tags.size >= MAX_RECENT_TAGS) this.#tags.clear();
      this.#tags.set(text, tag);
    }
    return tag;
  }

  /** Brotli when the request takes it, else gzip, else nothing (a `q=0` refuses an encoding). */
  acceptedEncoding(header: string | undefined): Encoding | undefined {
    if (header === undefined) return undefined;
    // Every poll of every screen carries one of a handful of headers: each is read once.
    if (this.#encodings.has(header)) return this.#encodings.get(header);
    const encoding = readAcceptEncoding(header);
    if (this.#encodings.size >= MAX_READ_ENCODINGS) this.#encodings.clear();
    this.#encodings.set(header, encoding);
    return encoding;
  }
}
