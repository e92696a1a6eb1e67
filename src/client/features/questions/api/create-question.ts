import { useMutation } from '@tanstack/react-query';
import { API_PATHS } from '../../../../shared/routes.ts';
import { type QuestionCreateRequest, questionSchema } from '../../../../shared/schemas/question.ts';
import { apiCall } from '../../../lib/api-client.ts';
import { mergeQuestionIntoLists } from './get-questions.ts';

/** POST /questions (spec: speakerId, speakerName, question, askerUsername). */
export const createQuestion = (request: QuestionCreateRequest) =>
  apiCall(questionSchema, API_PATHS.questionCreate, { method: 'POST', json: request });

/** Asks a question; the asker sees it in every open list at once, before the socket echoes it. */
export const useCreateQuestion = () =>
  useMutation({
    mutationFn: createQuestion,
    onSuccess: (question, _variables, _result, { client }) => {
      mergeQuestionIntoLists(client, question);
    },
  });
