import type { QueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { STORAGE_KEYS } from '../../../shared/constants.ts';
import type { Question } from '../../../shared/schemas/question.ts';
import { toastDone } from '../../components/toast.ts';
import { translate } from '../../i18n/language.ts';

/*
 * The asker's own questions (decision 233). A question asked under a name is theirs by its
 * `askerUsername`; one asked anonymously reaches every list and event without it, so this
 * browser keeps the ids of those it asked, as it keeps its votes: the marks "You", the own list
 * and the notice of an answer follow them.
 */

/** Ids kept of the anonymous questions asked: the most recent ones. */
const MAX_KEPT = 500;

let held: ReadonlySet<string> | undefined;
const listeners = new Set<() => void>();

function ownIds(): ReadonlySet<string> {
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
  if (ownIds().has(question._id)) return;
  const kept = [...ownIds(), question._id].slice(-MAX_KEPT);
  // A new set: the screens that show "You" draw again (`useOwnQuestionIds`).
  held = new Set(kept);
  for (const listener of listeners) listener();
  try {
    localStorage.setItem(STORAGE_KEYS.anonymousQuestions, JSON.stringify(kept));
  } catch {
    // storage full or blocked: known for this page only
  }
}

/** On the server, which renders the Q&A room with its questions, no browser asked any. */
const NO_IDS: ReadonlySet<string> = new Set();
const noOwnIds = () => NO_IDS;

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

/**
 * The ids of the questions this browser asked anonymously, for a screen that marks its
 * attendee's own: it draws again when one is added (the socket may bring the question before the
 * answer to the asking does).
 */
export const useOwnQuestionIds = (): ReadonlySet<string> =>
  useSyncExternalStore(subscribe, ownIds, noOwnIds);

/** Whether `username` (this browser's attendee) asked `question`. */
export const isOwnQuestion = (
  question: Pick<Question, '_id' | 'askerUsername'>,
  username: string | undefined,
  own: ReadonlySet<string> = ownIds(),
): boolean => (Boolean(username) && question.askerUsername === username) || own.has(question._id);

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
        toastDone(question.answer, translate('qa.yourQuestionAnswered'));
      return;
    }
  }
}
