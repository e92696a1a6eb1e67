import type { Question } from '../../../shared/schemas/question.ts';
import type { QuestionOrder } from '../../components/question-parts.tsx';
import { byVotes } from './api/get-questions.ts';

/**
 * A speaker's questions as a room shows them: the pinned one on top, then the open ones in the
 * tab's order, then the answered ones in their own section. `list` is oldest first, as the API
 * gives it: `chat` keeps that order, `recent` is newest first, `top` most votes first.
 */
export function arrangeQuestions(
  list: readonly Question[],
  order: QuestionOrder,
): { pinned: Question | undefined; open: Question[]; answered: Question[] } {
  const pinned = list.find((question) => question.pinned);
  const rest = list.filter((question) => question !== pinned);
  const open = rest.filter((question) => !question.answered);
  const answered = rest.filter((question) => question.answered);
  return {
    pinned,
    open:
      order === 'top' ? [...open].sort(byVotes) : order === 'recent' ? [...open].reverse() : open,
    answered: order === 'recent' ? answered.reverse() : answered,
  };
}

/**
 * The end of a room's log, at most `count` questions, as the server renders it (decision 185): the
 * log opens at its end, so that is what shows before the code draws the whole list in its place.
 */
export function endOfLog(
  arranged: ReturnType<typeof arrangeQuestions>,
  count: number,
): ReturnType<typeof arrangeQuestions> {
  const last = (items: Question[], n: number) => (n > 0 ? items.slice(-n) : []);
  const answered = last(arranged.answered, count);
  const open = last(arranged.open, count - answered.length);
  const pinned = answered.length + open.length < count ? arranged.pinned : undefined;
  return { pinned, open, answered };
}

/**
 * The questions of the end of a room's log (`endOfLog` of its chat order), in the list's own
 * order: what the room's first render draws before the whole log (decision 253).
 */
export function tailOfLog(list: readonly Question[], count: number): readonly Question[] {
  if (list.length <= count) return list;
  const { pinned, open, answered } = endOfLog(arrangeQuestions(list, 'chat'), count);
  const shown = new Set([pinned, ...open, ...answered].map((question) => question?._id));
  return list.filter((question) => shown.has(question._id));
}
