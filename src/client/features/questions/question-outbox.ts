import { questionSchema, type QuestionCreateRequest } from '../../../shared/schemas/question.ts';
import { ApiError } from '../../lib/api-client.ts';
import { getAttendeeToken } from '../../lib/attendee-token.ts';
import { type QueuedItem, registerSender } from '../../lib/offline-queue.ts';
import { queryClient } from '../../lib/query-client.ts';
import { createQuestion } from './api/create-question.ts';
import { mergeQuestionIntoLists } from './api/get-questions.ts';
import { rememberOwnQuestion } from './own-questions.ts';

/**
 * How a queued question is sent: as it would have been, once. A 409 means the same question
 * from the same person reached the speaker already (an answer lost on the way): it is sent.
 */
registerSender('question', async (item: QueuedItem) => {
  const request = item.payload as unknown as QuestionCreateRequest;
  try {
    const question = questionSchema.parse(await createQuestion(request, getAttendeeToken()));
    rememberOwnQuestion(question);
    mergeQuestionIntoLists(queryClient, question);
    return question;
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) return null;
    throw error;
  }
});
