import type { Poll, PollResults, PollVoteRequest } from '../../../shared/schemas/poll.ts';

/*
 * The figures a poll's results show, pure: percentages, bars, the word cloud's sizes and order,
 * and which of them are the reader's own answer. `poll-results.tsx` draws them.
 */

/**
 * Whole percentages of `total` for `counts`. When the counts make the whole (one answer each,
 * as a single choice), they are rounded by the largest remainder so they add up to exactly 100;
 * otherwise (several answers each) each is rounded on its own. Nothing of nothing is 0 %.
 */
export function percentages(counts: readonly number[], total: number): number[] {
  if (total <= 0) return counts.map(() => 0);
  const exact = counts.map((count) => (count / total) * 100);
  const sum = counts.reduce((all, count) => all + count, 0);
  if (sum !== total) return exact.map((value) => Math.min(100, Math.round(value)));
  const floors = exact.map(Math.floor);
  let left = 100 - floors.reduce((all, value) => all + value, 0);
  const byRemainder = exact
    .map((value, index) => ({ index, remainder: value - Math.floor(value) }))
    .sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  for (const { index } of byRemainder) {
    if (left <= 0) break;
    floors[index] = (floors[index] ?? 0) + 1;
    left -= 1;
  }
  return floors;
}

/** One bar: its label, its figure, and how long it is (0–100, of the longest possible). */
export interface ResultBar {
  id: string;
  label: string;
  /** Answers (choice, rating) or points (ranking). */
  value: number;
  /** Share of the answers, in whole percent (choice and rating). */
  percent: number;
  /** The bar's length, 0–100. */
  width: number;
  /** A quiz's right option, once it is known. */
  correct: boolean;
  /** The reader's own answer. */
  mine: boolean;
}

const choiceOf = (results: PollResults | null) =>
  results && 'options' in results && results.options.every((option) => 'count' in option)
    ? (results as { options: { id: string; count: number }[]; correctOptionIds?: string[] })
    : null;

const rankingOf = (results: PollResults | null) =>
  results && 'options' in results && results.options.every((option) => 'points' in option)
    ? (results as { options: { id: string; points: number }[] })
    : null;

/** A quiz's right options, once the results carry them (closed) or the owner's view does. */
export function correctOptionIdsOf(poll: Poll): readonly string[] {
  const choice = choiceOf(poll.results);
  return choice?.correctOptionIds ?? poll.correctOptionIds ?? [];
}

/**
 * single, multiple and quiz: a bar per option, in the poll's order (bars that keep their place
 * are read while they move). A share is of the people who answered: with several answers each
 * (multiple) the shares add up to more than 100 %.
 */
export function choiceBars(poll: Poll, mine?: PollVoteRequest): ResultBar[] {
  const choice = choiceOf(poll.results);
  const counts = poll.options.map(
    (option) => choice?.options.find((item) => item.id === option.id)?.count ?? 0,
  );
  const total = Math.max(poll.voters, ...counts, 0);
  const shares = percentages(counts, total);
  const correct = new Set(correctOptionIdsOf(poll));
  const own = new Set(mine && 'optionIds' in mine ? mine.optionIds : []);
  return poll.options.map((option, index) => ({
    id: option.id,
    label: option.text,
    value: counts[index] ?? 0,
    percent: shares[index] ?? 0,
    width: shares[index] ?? 0,
    correct: correct.has(option.id),
    mine: own.has(option.id),
  }));
}

/** rating: the average, and a bar per value from 1 to the poll's highest. */
export function ratingFigures(
  poll: Poll,
  mine?: PollVoteRequest,
): { average: number | null; answers: number; bars: ResultBar[] } {
  const results = poll.results && 'counts' in poll.results ? poll.results : null;
  const counts = Array.from({ length: poll.maxRating }, (_, index) => results?.counts[index] ?? 0);
  const answers = counts.reduce((all, count) => all + count, 0);
  const shares = percentages(counts, answers);
  const own = mine && 'rating' in mine ? mine.rating : undefined;
  return {
    average: results?.average ?? null,
    answers,
    bars: counts.map((count, index) => ({
      id: String(index + 1),
      label: String(index + 1),
      value: count,
      percent: shares[index] ?? 0,
      width: shares[index] ?? 0,
      correct: false,
      mine: own === index + 1,
    })),
  };
}

/**
 * ranking: a bar per option by its points, most first (the room's order), each as long as its
 * share of the leader's points; ties keep the poll's order. `mine` marks the reader's first
 * choice.
 */
export function rankingBars(poll: Poll, mine?: PollVoteRequest): ResultBar[] {
  const ranking = rankingOf(poll.results);
  const points = poll.options.map(
    (option) => ranking?.options.find((item) => item.id === option.id)?.points ?? 0,
  );
  const top = Math.max(0, ...points);
  const total = points.reduce((all, value) => all + value, 0);
  const shares = percentages(points, total);
  const first = mine && 'ranking' in mine ? mine.ranking[0] : undefined;
  const bars = poll.options.map((option, index) => ({
    id: option.id,
    label: option.text,
    value: points[index] ?? 0,
    percent: shares[index] ?? 0,
    width: top === 0 ? 0 : Math.round(((points[index] ?? 0) / top) * 100),
    correct: false,
    mine: option.id === first,
  }));
  // A stable sort: ties keep the poll's order.
  return bars.toSorted((a, b) => b.value - a.value);
}

/** The place the reader gave each option in their own ranking, 1 first. */
export function ownPlaces(mine?: PollVoteRequest): Map<string, number> {
  const places = new Map<string, number>();
  if (mine && 'ranking' in mine) mine.ranking.forEach((id, index) => places.set(id, index + 1));
  return places;
}

/** The word cloud's entries of an answer, as the server splits them: commas, semicolons, lines. */
export const wordEntries = (text: string): string[] =>
  text
    .split(/[,;\n]/)
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);

/** A word as the cloud compares it: the server's normalisation, near enough for marking. */
const wordKey = (text: string) => text.normalize('NFKC').toLocaleLowerCase().replace(/\s+/g, ' ');

/** A word of the cloud: its text, its count, its size (`min`–`max`), and whether it is mine. */
export interface CloudWord {
  text: string;
  count: number;
  size: number;
  mine: boolean;
}

/**
 * The word cloud: each word sized by its count, between `min` and `max` (by the square root,
 * so the area follows the count rather than the height), the most frequent in the middle and
 * the others alternately after and before it, so the cloud reads from its centre out.
 */
export function cloudWords(
  words: readonly { text: string; count: number }[],
  { min, max }: { min: number; max: number },
  mine?: PollVoteRequest,
): CloudWord[] {
  const own = new Set(mine && 'text' in mine ? wordEntries(mine.text).map(wordKey) : []);
  const sorted = words
    .filter((word) => word.count > 0)
    .toSorted((a, b) => b.count - a.count || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
  const top = sorted[0]?.count ?? 0;
  const sized = sorted.map((word) => ({
    text: word.text,
    count: word.count,
    size:
      top <= 1
        ? (min + max) / 2
        : Math.round((min + (max - min) * Math.sqrt((word.count - 1) / (top - 1))) * 100) / 100,
    mine: own.has(wordKey(word.text)),
  }));
  const before: CloudWord[] = [];
  const after: CloudWord[] = [];
  sized.forEach((word, index) => (index % 2 === 0 ? after : before).push(word));
  return [...before.reverse(), ...after];
}

/** Whether an open answer of the results is the reader's own: the same text, as typed. */
export const isOwnText = (text: string, mine?: PollVoteRequest): boolean =>
  Boolean(mine && 'text' in mine && mine.text.trim() === text.trim());
