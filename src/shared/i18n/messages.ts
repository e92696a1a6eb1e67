import {
  type Formatters,
  IntlMessageFormat,
  type MessageFormatPart,
  PART_TYPE,
  formatToParts,
} from 'intl-messageformat';
import { type MessageFormatElement, TYPE } from '@formatjs/icu-messageformat-parser';
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
 * The text of a message that is only text, else undefined: most messages are, and they need no
 * formatter. A written message with none of ICU's special characters, or a compiled one that is
 * one literal.
 */
function literalOf(message: string | MessageFormatElement[]): string | undefined {
  if (typeof message === 'string') return /[{}<>'#]/.test(message) ? undefined : message;
  if (message.length === 0) return '';
  const [only] = message;
  return message.length === 1 && only?.type === TYPE.literal ? only.value : undefined;
}

/** One value per distinct list of arguments, made the first time it is asked for. */
function memoized<A extends unknown[], T>(make: (...args: A) => T): (...args: A) => T {
  const made = new Map<string, T>();
  return (...args) => {
    const key = JSON.stringify(args);
    let value = made.get(key);
    if (value === undefined) {
      value = make(...args);
      made.set(key, value);
    }
    return value;
  };
}

/**
 * A language's messages, formatted: each message is read once and kept. A message missing from
 * the catalog, or one whose values are missing, shows its name (the catalog test fails on both).
 * A message is formatted from its tree with the formatters its language's messages share: a
 * formatter per message (what `IntlMessageFormat` makes, with a look-up of the locale each) was
 * the costly part of a first screen's text on a phone.
 */
export class Messages {
  readonly #trees = new Map<string, MessageFormatElement[] | string>();
  readonly #formatters: Formatters = {
    getNumberFormat: memoized(
      (...args: ConstructorParameters<typeof Intl.NumberFormat>) => new Intl.NumberFormat(...args),
    ),
    getDateTimeFormat: memoized(
      (...args: ConstructorParameters<typeof Intl.DateTimeFormat>) =>
        new Intl.DateTimeFormat(...args),
    ),
    getPluralRules: memoized(
      (...args: ConstructorParameters<typeof Intl.PluralRules>) => new Intl.PluralRules(...args),
    ),
  };

  constructor(
    readonly language: Language,
    readonly catalog: Catalog,
  ) {}

  /**
   * The message's tree (its text, for a message that is only text), read once; undefined for a
   * message the catalog lacks. Only the server and tests have messages as written to parse.
   */
  #treeOf(id: MessageId): MessageFormatElement[] | string | undefined {
    let tree = this.#trees.get(id);
    if (tree === undefined) {
      const message = this.catalog[id];
      if (message === undefined) return undefined;
      tree =
        literalOf(message) ??
        (typeof message === 'string'
          ? new IntlMessageFormat(message, this.language).getAst()
          : message);
      this.#trees.set(id, tree);
    }
    return tree;
  }

  /** The message's parts, adjacent texts joined; the message's name if it cannot be formatted. */
  #parts<T>(id: MessageId, values?: Record<string, unknown>): (string | T)[] {
    const tree = this.#treeOf(id);
    if (tree === undefined) return [id];
    if (typeof tree === 'string') return [tree];
    let parts: MessageFormatPart<T>[];
    try {
      parts = formatToParts<T>(
        tree,
        this.language,
        this.#formatters,
        IntlMessageFormat.formats,
        values as Parameters<typeof formatToParts<T>>[4],
      );
    } catch {
      return [id];
    }
    const joined: (string | T)[] = [];
    for (const part of parts) {
      const last = joined.at(-1);
      if (part.type === PART_TYPE.literal && typeof last === 'string') {
        joined[joined.length - 1] = last + part.value;
      } else {
        joined.push(part.value);
      }
    }
    return joined;
  }

  /**
   * Makes the number format and plural rules the language's messages ask for, before they do:
   * the first of each reads the language's data from the engine, several milliseconds on a
   * phone, better spent in a task of its own than in the middle of a screen's render.
   */
  warm(): void {
    this.#formatters.getNumberFormat(this.language);
    this.#formatters.getPluralRules(this.language, { type: 'cardinal' });
  }

  format(id: MessageId, values?: MessageValues): string {
    return this.#parts<string>(id, values).join('');
  }

  /**
   * The message with parts that are not text: `values` may hold elements (a name in `<bdi>`, a
   * link) and tags' renderers (`<b>…</b>` is `b: (chunks) => …`). The parts, in order.
   */
  formatParts<T>(
    id: MessageId,
    values: Record<string, string | number | Date | T | ((chunks: (string | T)[]) => T)>,
  ): (string | T)[] {
    return this.#parts<T>(id, values);
  }

  has(id: string): id is MessageId {
    return Object.hasOwn(this.catalog, id);
  }
}
