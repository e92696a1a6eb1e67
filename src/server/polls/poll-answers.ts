import {
  POLL_LIMITS,
  type PollOption,
  type PollType,
  type PollVoteRequest,
} from '../../shared/schemas/poll.ts';
import { keepRecent } from '../lib/keep-recent.ts';
import { FILLER_WORDS } from './filler-words.ts';

/*
 * What one answer counts for (decisions 220 to 222), pure: the answer a vote request gives for a
 * poll's type, checked against the poll; the counters it moves; a quiz's points; the word
 * cloud's normalisation. The repository moves the counters by these keys and amounts.
 */

/** An answer as stored and counted. */
export type Answer =
  | { kind: 'options'; optionIds: string[] }
  | { kind: 'rating'; rating: number }
  | { kind: 'words'; words: string[] }
  | { kind: 'text'; text: string }
  | { kind: 'ranking'; ranking: string[] };

/** What a poll is, for checking an answer to it. */
export interface PollShape {
  type: PollType;
  options: readonly PollOption[];
  maxRating: number;
}

/** Why an answer does not fit its poll: a 400 with this message. */
export class AnswerRefusal extends Error {}

/** The counter key of a word (options and ratings have theirs: their id, their value). */
export const WORD_KEY_PREFIX = 'w:';

const refuse = (message: string): never => {
  throw new AnswerRefusal(message);
};

function knownOptionIds(poll: PollShape, ids: readonly string[]): string[] {
  const known = new Set(poll.options.map((option) => option.id));
  const unique = [...new Set(ids)];
  if (unique.length !== ids.length) refuse('An option is chosen twice');
  if (unique.some((id) => !known.has(id))) refuse('That option is not one of this poll’s');
  return unique;
}

/** Normalised words of a word-cloud answer, or a refusal. */
function wordsOf(text: string, isBlocked: (word: string) => boolean, filler: ReadonlySet<string>) {
  // NFKC first: full-width commas and semicolons separate as the ASCII ones do.
  const entries = text
    .normalize('NFKC')
    .split(/[,;\n\r、،]+/u)
    .filter((entry) => entry.trim() !== '');
  if (entries.length > POLL_LIMITS.wordcloudEntries) {
    refuse(`A word cloud takes up to ${POLL_LIMITS.wordcloudEntries} words, separated by commas`);
  }
  if (text.length > POLL_LIMITS.wordcloudTextMax) refuse('The answer is too long for a word cloud');
  const words: string[] = [];
  for (const entry of entries) {
    const word = normaliseWord(entry);
    if (graphemes(word) > POLL_LIMITS.wordMax) refuse('A word of the cloud is too long');
    if (!keepsWord(word) || filler.has(word) || isBlocked(word) || words.includes(word)) continue;
    words.push(word);
  }
  return words;
}

/**
 * One entry of a word cloud as it is counted: NFKC (full-width and compatibility forms become
 * the plain ones), lower case without a locale (the same on every server), characters that
 * print nothing removed, runs of spaces one space, trimmed (decision 222).
 */
export function normaliseWord(entry: string): string {
  return entry
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\p{Cc}\p{Cf}]/gu, '')
    .replace(/\s+/gu, ' ')
    .trim();
}

const PICTOGRAPH = /\p{Extended_Pictographic}/u;
/** Scripts whose words are often one or two characters (愛, 東京, 사랑). */
const SHORT_WORD_SCRIPTS =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

const segmenter = new Intl.Segmenter('und', { granularity: 'grapheme' });
/** The characters of a text as a person counts them (an emoji with its modifiers is one). */
const graphemes = (text: string): number => {
  let count = 0;
  for (const _ of segmenter.segment(text)) count += 1;
  return count;
};

/**
 * Words under 3 characters are left out (`ok`, `a`), but an emoji counts whatever its size, and
 * so does a word of Chinese, Japanese or Korean characters (the filler list leaves out their
 * particles).
 */
const keepsWord = (word: string): boolean =>
  graphemes(word) >= 3 || PICTOGRAPH.test(word) || SHORT_WORD_SCRIPTS.test(word);

/** The filler word sets made so far, by the languages they are for: the settings name a few. */
const fillerSets = new Map<string, ReadonlySet<string>>();

/**
 * The filler words of the event's languages (all the lists the app ships when none is named),
 * made once per list of languages: every answer to a poll asks for them.
 */
export function fillerWordsOf(languages: readonly string[] | undefined): ReadonlySet<string> {
  const codes =
    languages && languages.length > 0
      ? languages.map((code) => code.toLowerCase().split('-')[0] ?? '')
      : Object.keys(FILLER_WORDS);
  const key = codes.join(' ');
  let words = fillerSets.get(key);
  if (!words) {
    words = new Set(codes.flatMap((code) => FILLER_WORDS[code] ?? []));
    keepRecent(fillerSets, key, words, 16);
  }
  return words;
}

/**
 * The answer a vote request gives for a poll, checked against it: the right field for its type,
 * options of its own, a rating in its range, every option ranked once, a text of its size.
 * Throws `AnswerRefusal` (a 400) otherwise.
 */
export function answerOf(
  poll: PollShape,
  request: PollVoteRequest,
  words: { isBlocked: (word: string) => boolean; filler: ReadonlySet<string> },
): Answer {
  switch (poll.type) {
    case 'single':
    case 'multiple':
    case 'quiz': {
      if (!('optionIds' in request)) return refuse('Send optionIds: the options chosen');
      const optionIds = knownOptionIds(poll, request.optionIds);
      if (poll.type === 'single' && optionIds.length !== 1) refuse('Choose exactly one option');
      return { kind: 'options', optionIds };
    }
    case 'rating': {
      if (!('rating' in request)) return refuse('Send rating: a whole number');
      if (request.rating < 1 || request.rating > poll.maxRating) {
        refuse(`A rating is from 1 to ${poll.maxRating}`);
      }
      return { kind: 'rating', rating: request.rating };
    }
    case 'wordcloud':
      if (!('text' in request)) return refuse('Send text: up to 3 words, separated by commas');
      return { kind: 'words', words: wordsOf(request.text, words.isBlocked, words.filler) };
    case 'open':
      if (!('text' in request)) return refuse('Send text: your answer');
      return { kind: 'text', text: request.text };
    case 'ranking': {
      if (!('ranking' in request)) return refuse('Send ranking: every option id, first preferred');
      const ranking = knownOptionIds(poll, request.ranking);
      if (ranking.length !== poll.options.length) refuse('Rank every option once');
      return { kind: 'ranking', ranking };
    }
  }
}

/**
 * The counters an answer adds to (a replaced answer takes the same away): one per option chosen,
 * the rating's value, one per word, and a ranking's Borda points, n − 1 for the first of n
 * options down to 0 for the last (decision 221). An open answer moves no counter: it is listed.
 */
export function countsOf(answer: Answer): Map<string, number> {
  switch (answer.kind) {
    case 'options':
      return new Map(answer.optionIds.map((id) => [id, 1]));
    case 'rating':
      return new Map([[String(answer.rating), 1]]);
    case 'words':
      return new Map(answer.words.map((word) => [`${WORD_KEY_PREFIX}${word}`, 1]));
    case 'ranking':
      return new Map(answer.ranking.map((id, rank) => [id, answer.ranking.length - 1 - rank]));
    case 'text':
      return new Map();
  }
}

/**
 * The counters' changes when `before` is replaced by `after`, zero changes left out: a first
 * answer when there is nothing `before`, an answer taken back (its attendee erased) when there is
 * nothing `after`.
 */
export function countChanges(
  before: Answer | undefined,
  after: Answer | undefined,
): Map<string, number> {
  const changes = after ? countsOf(after) : new Map<string, number>();
  for (const [key, amount] of before ? countsOf(before) : []) {
    changes.set(key, (changes.get(key) ?? 0) - amount);
  }
  for (const [key, amount] of changes) if (amount === 0) changes.delete(key);
  return changes;
}

/** The most points a right quiz answer scores: at once. */
export const QUIZ_MAX_POINTS = 1000;
/** The seconds after which a right answer scores half (decision 221). */
export const QUIZ_HALF_POINTS_SECONDS = 30;

/**
 * A quiz answer's points: 0 unless it chose exactly the right options (no part marks), else
 * 1000 × 30 / (30 + s), s the seconds since the quiz opened: 1000 at once, 500 after 30 s, 250
 * after 90 s, never 0.
 */
export function quizPoints(
  answer: Answer,
  correctOptionIds: readonly string[],
  secondsSinceOpen: number,
): number {
  if (answer.kind !== 'options') return 0;
  const right = new Set(correctOptionIds);
  const exact =
    answer.optionIds.length === right.size && answer.optionIds.every((id) => right.has(id));
  if (!exact) return 0;
  const seconds = Math.max(0, secondsSinceOpen);
  return Math.max(
    1,
    Math.round((QUIZ_MAX_POINTS * QUIZ_HALF_POINTS_SECONDS) / (QUIZ_HALF_POINTS_SECONDS + seconds)),
  );
}
