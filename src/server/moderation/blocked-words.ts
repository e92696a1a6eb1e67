import { remove as removeConfusables } from 'confusables';

/*
 * The blocked-word matcher (decision 235), pure: a list compiled once, then asked of any text.
 *
 * Text and list are folded the same way, one character at a time, so that each folded letter
 * still knows where it stood in the text (masking stars the original characters):
 * NFKC (full-width and compatibility forms), lower case, accents dropped, look-alike letters of
 * other scripts read as the Latin letter they imitate (the `confusables` table: Cyrillic "а" is
 * "a"), a few Arabic letters read as their plain form, `@` and `$` read as "a" and "s", and what
 * prints nothing ignored. Words are matched whole: a word of the list matches a word of the text,
 * never a part of one, unless `*` at its start or end stands for the rest (stems: "fuck*").
 * Tricks are undone: letters spaced out ("b a d") or split by punctuation ("b.a.d", "sh-it") are
 * also read joined, and a letter repeated ("baaad") matches once or twice. Japanese and Chinese
 * are written without spaces, so their words are found inside the text.
 */

/** Scripts whose letters stay as they are (the confusables table would read them as Latin). */
const OWN_SCRIPTS =
  /[\p{Script=Latin}\p{Script=Arabic}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** Scripts written without spaces between words: their list words are found inside the text. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const WORD_CHAR = /[\p{L}\p{N}]/u;
const SPACE = /\s/u;
/** What prints nothing and joins what is around it: format characters, marks, the tatweel. */
const NOTHING = /^[\p{Cf}\p{M}\p{Default_Ignorable_Code_Point}\u0640]$/u;
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}\u0640]/gu;
const segmenter = new Intl.Segmenter('und', { granularity: 'grapheme' });
/**
 * The characters of a text as a person sees them: a letter with its accents or a half-width
 * kana with its voicing mark is one (plain ASCII is split faster, by code point).
 */
const charsOf = (text: string): string[] =>
  // eslint-disable-next-line no-control-regex -- ASCII is the fast case
  /^[\u0000-\u007f]*$/.test(text)
    ? Array.from(text)
    : Array.from(segmenter.segment(text), ({ segment }) => segment);

/** Letters the decomposition leaves whole, and the Arabic letters with a plain form. */
const LETTERS: Readonly<Record<string, string>> = {
  ß: 'ss',
  ı: 'i',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  æ: 'ae',
  œ: 'oe',
  þ: 'th',
  '@': 'a',
  $: 's',
  أ: 'ا',
  إ: 'ا',
  آ: 'ا',
  ٱ: 'ا',
  ة: 'ه',
  ى: 'ي',
  ؤ: 'و',
  ئ: 'ي',
};

/** What a character without letters is: a space, punctuation, or nothing to read. */
const SPACED = 0;
const PUNCT = 1;
const NOTHING_ = 2;
/** A character of the text as it is matched: its folded letters, or its kind when it has none. */
type Folded = string | typeof SPACED | typeof PUNCT | typeof NOTHING_;

function foldChar(char: string, starIsLetter: boolean): Folded {
  const code = char.codePointAt(0) ?? 0;
  if (code < 0x80 && char.length === 1) {
    // By code, the commonest case: a digit, a lower or an upper case letter, a space.
    if ((code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39)) return char;
    if (code >= 0x41 && code <= 0x5a) return String.fromCharCode(code + 0x20);
    if (starIsLetter && char === '*') return '*';
    if (char === '@' || char === '$') return LETTERS[char] ?? PUNCT;
    return code === 0x20 || (code >= 0x09 && code <= 0x0d) ? SPACED : PUNCT;
  }
  if (NOTHING.test(char)) return NOTHING_;
  const compatible = char.normalize('NFKC').toLowerCase().replace(INVISIBLE, '');
  // Kana and Hangul keep their marks: "ガ" is not "カ".
  if (UNSPACED.test(compatible) || /\p{Script=Hangul}/u.test(compatible)) return compatible;
  let folded = '';
  for (const part of compatible.normalize('NFKD')) {
    if (/\p{M}/u.test(part) || NOTHING.test(part)) continue;
    const letter = LETTERS[part] ?? part;
    if (!WORD_CHAR.test(letter) || letter.length > 1 || OWN_SCRIPTS.test(letter)) {
      folded += letter;
    } else {
      folded += removeConfusables(letter).toLowerCase();
    }
  }
  if (folded === '') return NOTHING_;
  if (Array.from(folded).every((part) => WORD_CHAR.test(part))) return folded;
  if (starIsLetter && folded === '*') return '*';
  return SPACE.test(folded) ? SPACED : PUNCT;
}

/** A run of letters between spaces or punctuation: its folded text and where it stood. */
interface Piece {
  text: string;
  /** The text's code point at each place of the folded text (a letter may fold to two). */
  at: number[];
  /** Its first and past-its-last code points in the text. */
  start: number;
  end: number;
}

/** A text read for matching: its code points, its pieces, and the candidates to match. */
interface Reading {
  chars: string[];
  pieces: Piece[];
  /** The pieces, and what tricks join: a chunk's pieces without their punctuation, spaced letters. */
  candidates: Piece[];
}

/** The longest word matched, in letters: a longer run of letters is no word of any list. */
const WORD_MAX = 100;

/**
 * A piece from its folded letters and where each stood, three or more of one letter kept as
 * two ("baaad" is read "baad").
 */
function pieceOf(letters: readonly (readonly [string, number])[]): Piece {
  const kept = letters.filter(
    ([letter], index) => letter !== letters[index - 1]?.[0] || letter !== letters[index - 2]?.[0],
  );
  return {
    text: kept.map(([letter]) => letter).join(''),
    at: kept.map(([, at]) => at),
    start: letters[0]?.[1] ?? 0,
    end: (letters.at(-1)?.[1] ?? 0) + 1,
  };
}

function read(text: string, starIsLetter = false): Reading {
  const chars = charsOf(text);
  /** Each piece's folded letters (code points) and where each stood. */
  const runs: [string, number][][] = [];
  /** The pieces of each run between spaces, as index ranges of `runs`. */
  const chunks: [number, number][] = [];
  let run: [string, number][] = [];
  let chunkStart = 0;
  const endPiece = () => {
    if (run.length > 0) runs.push(run);
    run = [];
  };
  const endChunk = () => {
    endPiece();
    if (runs.length > chunkStart) chunks.push([chunkStart, runs.length]);
    chunkStart = runs.length;
  };
  chars.forEach((char, index) => {
    const folded = foldChar(char, starIsLetter);
    if (folded === NOTHING_) return;
    if (folded === SPACED) endChunk();
    else if (folded === PUNCT) endPiece();
    else for (const letter of folded) run.push([letter, index]);
  });
  endChunk();
  const pieces = runs.map(pieceOf);
  const candidates = [...pieces];
  const joined = (from: number, to: number) => pieceOf(runs.slice(from, to).flat());
  for (const [from, to] of chunks) if (to - from > 1) candidates.push(joined(from, to));
  // Letters spaced out: three or more runs of one letter each in a row.
  let singles = 0;
  for (let index = 0; index <= chunks.length; index += 1) {
    const chunk = chunks[index];
    if (chunk && runs.slice(chunk[0], chunk[1]).flat().length === 1) {
      singles += 1;
      continue;
    }
    const first = chunks[index - singles];
    const last = chunks[index - 1];
    if (singles >= 3 && first && last) candidates.push(joined(first[0], last[1]));
    singles = 0;
  }
  return { chars, pieces, candidates };
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A folded word of the list as a pattern: each letter once or twice, a doubled one twice. */
function letters(word: string): string {
  return [...word.matchAll(/(.)\1*/gsu)]
    .map(([run, char = '']) => (run.length > 1 ? `${escape(char)}{2}` : `${escape(char)}{1,2}`))
    .join('');
}

/** One word of the list, folded: its letters and whether `*` stands before or after them. */
interface ListWord {
  core: string;
  before: boolean;
  after: boolean;
}

function listWord(text: string): ListWord {
  const before = text.startsWith('*');
  const after = text.endsWith('*') && text.length > 1;
  return { core: text.replace(/^\*|\*$/g, ''), before, after };
}

/** The key of a whole word: every run of one letter as one letter. */
const keyOf = (text: string) => text.replace(/(.)\1+/gsu, '$1');

const firstOf = (text: string, at = 0) => String.fromCodePoint(text.codePointAt(at) ?? 0);

/** Patterns by the letter they start with, each group one expression tried at a place. */
class ByFirstLetter {
  readonly #patterns = new Map<string, string[]>();
  #compiled = new Map<string, RegExp>();

  add(word: ListWord, end: '' | '$'): void {
    const first = firstOf(word.core);
    this.#patterns.set(first, [...(this.#patterns.get(first) ?? []), letters(word.core) + end]);
  }

  compile(): void {
    this.#compiled = new Map(
      [...this.#patterns].map(([first, patterns]) => [
        first,
        new RegExp(`(?:${patterns.join('|')})`, 'suy'),
      ]),
    );
  }

  get empty(): boolean {
    return this.#compiled.size === 0;
  }

  /** Whether one of them matches `text` at `at`. */
  at(text: string, at: number): boolean {
    const pattern = this.#compiled.get(firstOf(text, at));
    if (!pattern) return false;
    pattern.lastIndex = at;
    return pattern.test(text);
  }

  /** Whether one of them matches `text` at any place. */
  anywhere(text: string): boolean {
    if (this.empty) return false;
    for (let at = 0; at < text.length; at += firstOf(text, at).length) {
      if (this.at(text, at)) return true;
    }
    return false;
  }
}

/** One word of a phrase as an expression of the whole word. */
const wholeWord = ({ core, before, after }: ListWord) =>
  new RegExp(`^${before ? '.*' : ''}${letters(core)}${after ? '.*' : ''}$`, 'su');

/** A compiled list: whether a text holds one of its words, and the text with them starred. */
export interface BlockedWords {
  /** How many entries the list has. */
  readonly size: number;
  test(text: string): boolean;
  /** The text with the letters of each blocked word replaced by `*`, everything else as it was. */
  mask(text: string): string;
}

/**
 * Compiles a list of blocked words (each a word, a stem with `*`, or a phrase of several) for
 * matching many texts: whole words are looked up by key; stems (`word*`), endings (`*word`) and
 * parts (`*word*`) by their first letter, tried at each place of a word; Japanese and Chinese
 * words in one expression; phrases by their first word. Nothing is tried against every entry.
 */
export function compileBlockedWords(list: readonly string[]): BlockedWords {
  /** Whole words by key, each with its exact pattern. */
  const exact = new Map<string, RegExp[]>();
  const stems = new ByFirstLetter();
  const endings = new ByFirstLetter();
  const parts = new ByFirstLetter();
  const unspaced: string[] = [];
  /** Phrases by the key of their first word (when it has no `*`), else under ''. */
  const phrases = new Map<string, RegExp[][]>();
  let size = 0;
  for (const entry of list) {
    const words = read(entry, true).pieces.map((piece) => listWord(piece.text));
    const [word] = words;
    if (!word || words.some((part) => part.core === '')) continue;
    size += 1;
    if (words.length > 1) {
      const key = word.before || word.after ? '' : keyOf(word.core);
      phrases.set(key, [...(phrases.get(key) ?? []), words.map(wholeWord)]);
    } else if (UNSPACED.test(word.core)) {
      unspaced.push(escape(word.core));
    } else if (word.before && word.after) {
      parts.add(word, '');
    } else if (word.before) {
      endings.add(word, '$');
    } else if (word.after) {
      stems.add(word, '');
    } else {
      const key = keyOf(word.core);
      exact.set(key, [...(exact.get(key) ?? []), wholeWord(word)]);
    }
  }
  stems.compile();
  endings.compile();
  parts.compile();
  const inside = unspaced.length === 0 ? null : new RegExp(unspaced.join('|'), 'gu');
  const loosePhrases = phrases.get('') ?? [];

  const wordMatches = (text: string): boolean => {
    if (text.length > WORD_MAX * 2) return false;
    if (exact.get(keyOf(text))?.some((pattern) => pattern.test(text))) return true;
    return stems.at(text, 0) || endings.anywhere(text) || parts.anywhere(text);
  };

  /** Where blocked words stand in a text: code point ranges, in no order. */
  const spansOf = (reading: Reading, all: boolean): [number, number][] => {
    const spans: [number, number][] = [];
    for (const candidate of reading.candidates) {
      if (wordMatches(candidate.text)) {
        spans.push([candidate.start, candidate.end]);
        if (!all) return spans;
      }
    }
    if (inside) {
      for (const piece of reading.pieces) {
        for (const found of piece.text.matchAll(inside)) {
          const from = Array.from(piece.text.slice(0, found.index)).length;
          const to = from + Array.from(found[0]).length;
          spans.push([piece.at[from] ?? piece.start, (piece.at[to - 1] ?? piece.end - 1) + 1]);
          if (!all) return spans;
        }
      }
    }
    if (phrases.size === 0) return spans;
    const { pieces } = reading;
    for (const [start, piece] of pieces.entries()) {
      for (const phrase of [...(phrases.get(keyOf(piece.text)) ?? []), ...loosePhrases]) {
        const words = pieces.slice(start, start + phrase.length);
        if (words.length < phrase.length) continue;
        if (phrase.every((pattern, offset) => pattern.test(words[offset]?.text ?? ''))) {
          spans.push([piece.start, words.at(-1)?.end ?? piece.end]);
          if (!all) return spans;
        }
      }
    }
    return spans;
  };
  return {
    size,
    test: (text) => size > 0 && spansOf(read(text), false).length > 0,
    mask(text) {
      if (size === 0) return text;
      const reading = read(text);
      const spans = spansOf(reading, true);
      if (spans.length === 0) return text;
      const starred = new Set<number>();
      for (const [start, end] of spans) for (let at = start; at < end; at += 1) starred.add(at);
      return reading.chars
        .map((char, index) => {
          if (!starred.has(index)) return char;
          const folded = foldChar(char, false);
          if (folded === NOTHING_) return '';
          return folded === SPACED || folded === PUNCT ? char : '*';
        })
        .join('');
    },
  };
}
