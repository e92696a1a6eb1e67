import { type QueryObserverResult, useQueries } from '@tanstack/react-query';
import type { Question } from '../../../shared/schemas/question.ts';
import { mergeById } from '../../lib/merge-by-id.ts';
import { questionsQueryOptions } from './api/get-questions.ts';
import { useLiveQuestions } from './use-live-questions.ts';

const NO_QUESTIONS: Question[] = [];

/** The lists of several speakers as one, oldest first; pending while any is. */
function combineLists(lists: QueryObserverResult<Question[]>[]) {
  return {
    questions: lists.reduce<Question[]>(
      (all, list) => (list.data ? mergeById(all, list.data) : all),
      NO_QUESTIONS,
    ),
    pending: lists.some((list) => list.isPending),
    failed: lists.some((list) => list.isError && !list.data),
  };
}

/**
 * The questions put to one or more speakers, as one list oldest first, live: over the socket
 * (the speaker's room for one, every question's for a panel), polled as the fallback, read again
 * on every reconnect. A session's questions are its speakers' (the speaker's projector, a talk's
 * page, a room's projector). Each list is the app's one cached list of that speaker, bounded to
 * the latest page and what arrives, and it leaves the cache when no screen shows it.
 */
export function useSpeakersQuestions(speakerIds: readonly string[]) {
  const [first] = speakerIds;
  useLiveQuestions(
    speakerIds.length > 1
      ? { room: 'questions' }
      : first
        ? { room: 'speaker', speakerId: first }
        : null,
  );
  return useQueries({
    queries: speakerIds.map((speakerId) => questionsQueryOptions({ kind: 'speaker', speakerId })),
    combine: combineLists,
  });
}
