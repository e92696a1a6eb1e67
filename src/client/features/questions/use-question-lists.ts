import type { Question } from '../../../shared/schemas/question.ts';
import { type QuestionsScope, useQuestions } from './api/get-questions.ts';
import { useLiveQuestions } from './use-live-questions.ts';

/*
 * The lists a screen shows whole and live: over the socket, polled as the fallback, read again on
 * every reconnect. Each is the app's one cached list of its scope, bounded to the latest page and
 * what arrives, and it leaves the cache when no screen shows it, so a projector that follows
 * talks all day holds only the one on screen.
 */

const NO_QUESTIONS: Question[] = [];

function useLiveList(scope: QuestionsScope | null) {
  useLiveQuestions(
    scope?.kind === 'session'
      ? { room: 'session', sessionId: scope.sessionId }
      : scope?.kind === 'speaker'
        ? { room: 'speaker', speakerId: scope.speakerId }
        : null,
  );
  const list = useQuestions(scope);
  return {
    questions: list.data ?? NO_QUESTIONS,
    pending: scope !== null && list.isPending,
    failed: list.isError && !list.data,
  };
}

/** One speaker's questions, oldest first, live through the speaker's room (none: nothing yet). */
export const useSpeakerQuestions = (speakerId: string | undefined) =>
  useLiveList(speakerId ? { kind: 'speaker', speakerId } : null);

/** One session's questions, oldest first, live through the session's room (decision 223). */
export const useSessionQuestions = (sessionId: string) =>
  useLiveList({ kind: 'session', sessionId });
