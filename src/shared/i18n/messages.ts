import { IntlMessageFormat } from 'intl-messageformat';
import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import type english from './catalogs/en.json';
import type { Language } from './languages.ts';

/** A message's name in every catalog: the English catalog has them all (decision 246). */
export type MessageId = keyof typeof english;

/** What a message is made from: `{name}`, `{count, plural, …}`, `{when, date}`. */
export type MessageValues = Record<string, string | number | Date>;

/**
 * One language's messages by name, in ICU MessageFormat: as written (the server, tests), or
 * compiled to the parser's tree at build time (the client, which ships without the parser).
 */
export type Catalog = Readonly<Record<string, string | MessageFormatElement[]>>;

/**
 * A language's messages, formatted: each message is read once and kept. A message missing from
 * the catalog, or one whose values are missing, shows its name (the catalog test fails on both).
 */
export class Messages {
  readonly #formats = new Map<string, IntlMessageFormat>();

  constructor(
    readonly language: Language,
    readonly catalog: Catalog,
  ) {}

  /** The message's format, read once; undefined for a message the catalog lacks. */
  #formatOf(id: MessageId): IntlMessageFormat | undefined {
    let format = this.#formats.get(id);
    if (!format) {
      const message = this.catalog[id];
      if (message === undefined) return undefined;
      format = new IntlMessageFormat(message, this.language);
      this.#formats.set(id, format);
    }
    return format;
  }

  format(id: MessageId, values?: MessageValues): string {
    const format = this.#formatOf(id);
    if (!format) return id;
    try {
      return String(format.format(values));
    } catch {
      return id;
    }
  }

  /**
   * The message with parts that are not text: `values` may hold elements (a name in `<bdi>`, a
   * link) and tags' renderers (`<b>…</b>` is `b: (chunks) => …`). The parts, in order.
   */
  formatParts<T>(
    id: MessageId,
    values: Record<string, string | number | Date | T | ((chunks: (string | T)[]) => T)>,
  ): (string | T)[] {
    const format = this.#formatOf(id);
    if (!format) return [id];
    try {
      const parts = format.format<T>(values);
      return Array.isArray(parts) ? parts : [parts];
    } catch {
      return [id];
    }
  }

  has(id: string): id is MessageId {
    return Object.hasOwn(this.catalog, id);
  }
}
