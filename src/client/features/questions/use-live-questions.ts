import type { WatchRequest } from '../../../shared/events.ts';
import { useLiveUpdates } from '../../lib/live.ts';
import { SPEAKERS_KEY, mergeSpeakerIntoLists } from '../speakers/api/get-speakers.ts';
import { QUESTIONS_KEY, mergeQuestionIntoLists } from './api/get-questions.ts';

/**
 * Keeps the question and speaker lists live: new questions and speakers are merged by id into
 * every loaded list they belong in, and each connect of the socket refetches the lists. `room`
 * is where the screen's questions come from: one speaker's, or every question.
 */
export function useLiveQuestions(room: WatchRequest | null | undefined): void {
  useLiveUpdates({
    on: {
      newQuestion: ({ question }, client) => mergeQuestionIntoLists(client, question),
      speakerCreated: ({ speaker }, client) => mergeSpeakerIntoLists(client, speaker),
    },
    refetchOnConnect: [QUESTIONS_KEY, SPEAKERS_KEY],
    room,
  });
}
