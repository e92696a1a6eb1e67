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
