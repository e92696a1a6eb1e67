import type { MessageId, MessageValues } from '../../../shared/i18n/messages.ts';
import type { Translate } from '../../i18n/language.ts';
import { POLL_LIMITS, type Poll, type PollVoteRequest } from '../../../shared/schemas/poll.ts';
import { correctOptionIdsOf, wordEntries } from './results-figures.ts';

/*
 * The attendee's poll screens, pure (decision 229): which polls, in which order; the answer
 * form's draft and the answer it sends; a closed quiz's verdict.
 */

/**
 * The polls an attendee sees: never a draft (the server sends none to them; an owner's view in
 * the same tab could), the open ones first, then the closed ones, the newest first in each.
 */
export function attendeePolls(polls: readonly Poll[]): Poll[] {
  const shown = polls.filter((poll) => poll.state !== 'draft');
  const newestFirst = (a: Poll, b: Poll) => (a._id < b._id ? 1 : a._id > b._id ? -1 : 0);
  return [
    ...shown.filter((poll) => poll.state === 'open').sort(newestFirst),
    ...shown.filter((poll) => poll.state === 'closed').sort(newestFirst),
  ];
}

/** What the answer form holds while the attendee answers, for every type. */
export interface AnswerDraft {
  /** single (one), multiple and quiz (one or more). */
  optionIds: string[];
  /** rating, 1..maxRating, or none yet. */
  rating: number | null;
  /** wordcloud: up to 3 entries, one per box. */
  words: string[];
  /** open. */
  text: string;
  /** ranking: every option id, first preferred. */
  ranking: string[];
}

/** The form's start: the attendee's own answer when they change it, else nothing chosen. */
export function draftOf(poll: Poll, mine?: PollVoteRequest): AnswerDraft {
  const ids = new Set(poll.options.map((option) => option.id));
  const ranked = mine && 'ranking' in mine ? mine.ranking.filter((id) => ids.has(id)) : [];
  const words = mine && 'text' in mine && poll.type === 'wordcloud' ? wordEntries(mine.text) : [];
  return {
    optionIds: mine && 'optionIds' in mine ? mine.optionIds.filter((id) => ids.has(id)) : [],
    rating: mine && 'rating' in mine ? mine.rating : null,
    words: Array.from({ length: POLL_LIMITS.wordcloudEntries }, (_, index) => words[index] ?? ''),
    text: mine && 'text' in mine && poll.type === 'open' ? mine.text : '',
    // Every option once: the attendee's order, then any option it lacks in the poll's order.
    ranking: [
      ...ranked,
      ...poll.options.map((option) => option.id).filter((id) => !ranked.includes(id)),
    ],
  };
}

/** A message to show, with its values. */
export interface Said {
  id: MessageId;
  values?: MessageValues;
}

/** Why a word cloud's boxes cannot be sent (the message that says it), or null when they can. */
export function wordsProblem(words: readonly string[]): Said | null {
  if (words.some((word) => /[,;\n]/.test(word))) return { id: 'polls.wordsNoCommas' };
  if (words.some((word) => word.trim().length > POLL_LIMITS.wordMax)) {
    return { id: 'polls.wordsTooLong', values: { max: POLL_LIMITS.wordMax } };
  }
  return null;
}

/**
 * The answer to send for a draft, as the poll's type asks (`PUT …/vote`), or null while it is
 * not complete (nothing chosen, a blank text, a box with a comma).
 */
export function answerOf(poll: Poll, draft: AnswerDraft): PollVoteRequest | null {
  switch (poll.type) {
    case 'single':
      return draft.optionIds.length === 1 ? { optionIds: draft.optionIds } : null;
    case 'multiple':
    case 'quiz':
      return draft.optionIds.length > 0 ? { optionIds: draft.optionIds } : null;
    case 'rating':
      return draft.rating !== null && draft.rating >= 1 && draft.rating <= poll.maxRating
        ? { rating: draft.rating }
        : null;
    case 'wordcloud': {
      const words = draft.words.map((word) => word.trim()).filter((word) => word !== '');
      return words.length > 0 && wordsProblem(draft.words) === null
        ? { text: words.join(', ') }
        : null;
    }
    case 'open': {
      const text = draft.text.trim();
      return text !== '' && text.length <= POLL_LIMITS.openTextMax ? { text } : null;
    }
    case 'ranking':
      return draft.ranking.length === poll.options.length ? { ranking: draft.ranking } : null;
  }
}

/** `ranking` with the option at `index` moved `by` places (−1 up, +1 down), kept in bounds. */
export function moveInRanking(ranking: readonly string[], index: number, by: -1 | 1): string[] {
  const to = index + by;
  if (index < 0 || index >= ranking.length || to < 0 || to >= ranking.length) return [...ranking];
  const next = [...ranking];
  const [moved] = next.splice(index, 1);
  if (moved !== undefined) next.splice(to, 0, moved);
  return next;
}

/**
 * A closed quiz's verdict on the attendee's answer: right only when it is exactly the right
 * options (decision 221); null while the right options are unknown or nothing was answered.
 */
export function quizVerdict(poll: Poll, mine?: PollVoteRequest): 'right' | 'wrong' | null {
  if (poll.type !== 'quiz' || !mine || !('optionIds' in mine)) return null;
  const right = correctOptionIdsOf(poll);
  if (right.length === 0) return null;
  const chosen = new Set(mine.optionIds);
  return chosen.size === right.length && right.every((id) => chosen.has(id)) ? 'right' : 'wrong';
}

/** The attendee's answer in words, as the card recalls it: "Rust, Go", "4 of 5", the text. */
export function ownAnswerText(poll: Poll, mine: PollVoteRequest, t: Translate): string {
  const textOf = new Map(poll.options.map((option) => [option.id, option.text]));
  if ('optionIds' in mine) return mine.optionIds.map((id) => textOf.get(id) ?? id).join(', ');
  if ('rating' in mine) return t('polls.ratingOf', { rating: mine.rating, max: poll.maxRating });
  if ('ranking' in mine) {
    return mine.ranking.map((id, index) => `${index + 1}. ${textOf.get(id) ?? id}`).join('  ');
  }
  return mine.text;
}
