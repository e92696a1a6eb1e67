import type { WatchRequest } from '../../../shared/events.ts';
import { useLiveUpdates } from '../../lib/live.ts';
import { useStoredUsername } from '../../lib/username.ts';
import { noticeOwnAnswer } from './own-questions.ts';
import {
  SPEAKERS_KEY,
  mergeSpeakerIntoLists,
  removeSpeakerFromLists,
} from '../speakers/api/get-speakers.ts';
import {
  QUESTIONS_KEY,
  catchUpQuestionLists,
  mergeQuestionIntoLists,
  removeQuestionFromLists,
  removeSpeakerQuestions,
  updateQuestionInLists,
} from './api/get-questions.ts';

/**
 * Keeps the question and speaker lists live: new questions and speakers are merged by id into
 * every loaded list they belong in, changed ones replaced (votes, answered, pinned), deleted
 * and hidden ones removed, and each connect of the socket reads the lists again whole; the asker
 * hears of a written answer to their question. `room`
 * is where the screen's questions come from: one speaker's, or every question.
 */
export function useLiveQuestions(room: WatchRequest | null | undefined): void {
  const [username] = useStoredUsername();
  useLiveUpdates({
    on: {
      newQuestion: ({ question }, client) => mergeQuestionIntoLists(client, question),
      questionUpdated: ({ question }, client) => {
        // The asker's phone says so when their question gets a written answer (decision 234).
        noticeOwnAnswer(client, question, username, QUESTIONS_KEY);
        updateQuestionInLists(client, question);
      },
      questionDeleted: ({ id }, client) => removeQuestionFromLists(client, id),
      speakerCreated: ({ speaker }, client) => mergeSpeakerIntoLists(client, speaker),
      speakerDeleted: ({ id }, client) => {
        removeSpeakerFromLists(client, id);
        removeSpeakerQuestions(client, id);
      },
    },
    refetchOnConnect: [QUESTIONS_KEY, SPEAKERS_KEY],
    onConnect: catchUpQuestionLists,
    room,
  });
}
