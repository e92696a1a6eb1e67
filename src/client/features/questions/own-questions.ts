import type { QueryClient } from '@tanstack/react-query';
import { STORAGE_KEYS } from '../../../shared/constants.ts';
import { QA_TEXTS } from '../../../shared/qa-constants.ts';
import type { Question } from '../../../shared/schemas/question.ts';
import { toastDone } from '../../components/toast.ts';

/*
 * The asker's own questions (decision 233). A question asked under a name is theirs by its
 * `askerUsername`; one asked anonymously reaches every list and event without it, so this
 * browser keeps the ids of those it asked, as it keeps its votes: the marks "You", the own list
 * and the notice of an answer follow them.
 */

/** Ids kept of the anonymous questions asked: the most recent ones. */
const MAX_KEPT = 500;

let held: Set<string> | undefined;

function ownIds(): Set<string> {
  if (held) return held;
  let ids: unknown = [];
  try {
    ids = JSON.parse(localStorage.getItem(STORAGE_KEYS.anonymousQuestions) ?? '[]');
  } catch {
    // unreadable: none
  }
  held = new Set(Array.isArray(ids) ? ids.filter((id) => typeof id === 'string') : []);
  return held;
}

/** Keeps the id of a question this attendee just asked anonymously. */
export function rememberOwnQuestion(question: Pick<Question, '_id' | 'anonymous'>): void {
  if (!question.anonymous) return;
  const ids = ownIds();
  ids.add(question._id);
  const kept = [...ids].slice(-MAX_KEPT);
  held = new Set(kept);
  try {
    localStorage.setItem(STORAGE_KEYS.anonymousQuestions, JSON.stringify(kept));
  } catch {
    // storage full or blocked: known for this page only
  }
}

/** Whether `username` (this browser's attendee) asked `question`. */
export const isOwnQuestion = (
  question: Pick<Question, '_id' | 'askerUsername'>,
  username: string | undefined,
): boolean =>
  (Boolean(username) && question.askerUsername === username) || ownIds().has(question._id);

/**
 * Tells the asker, once, that their question was just answered in writing: when the answer
 * arrives (or changes) for a question held in a list. Called before the lists take the change,
 * so a second listener to the same event finds it held already and says nothing.
 */
export function noticeOwnAnswer(
  client: QueryClient,
  question: Question,
  username: string | undefined,
  lists: readonly unknown[],
): void {
  if (question.answer === null || !isOwnQuestion(question, username)) return;
  for (const [, data] of client.getQueriesData<Question[]>({ queryKey: lists })) {
    const before = data?.find((item) => item._id === question._id);
    if (before) {
      if (before.answer !== question.answer)
        toastDone(question.answer, QA_TEXTS.yourQuestionAnswered);
      return;
    }
  }
}
