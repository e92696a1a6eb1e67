import type { Question } from '../../../shared/schemas/question.ts';
import type { QuestionOrder } from '../../components/question-parts.tsx';
import { byVotes } from './api/get-questions.ts';

/**
 * A speaker's questions as a room shows them: the pinned one on top, then the open ones in the
 * tab's order, then the answered ones in their own section. `recent` keeps the list's order.
 */
export function arrangeQuestions(
  list: readonly Question[],
  order: QuestionOrder,
): { pinned: Question | undefined; open: Question[]; answered: Question[] } {
  const pinned = list.find((question) => question.pinned);
  const rest = list.filter((question) => question !== pinned);
  const open = rest.filter((question) => !question.answered);
  return {
    pinned,
    open: order === 'top' ? [...open].sort(byVotes) : open,
    answered: rest.filter((question) => question.answered),
  };
}
