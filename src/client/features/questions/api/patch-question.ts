import { useMutation } from '@tanstack/react-query';
import { API_PATHS } from '../../../../shared/routes.ts';
import { type QuestionPatch, questionResponseSchema } from '../../../../shared/schemas/question.ts';
import { apiCall } from '../../../lib/api-client.ts';
import { updateQuestionInLists } from './get-questions.ts';

/** PATCH /api/questions/:id: answered, pinned or status, with a speaker's or the admin's token. */
export const patchQuestion = ({
  id,
  patch,
  token,
}: {
  id: string;
  patch: QuestionPatch;
  token: string;
}) =>
  apiCall(questionResponseSchema, API_PATHS.question(id), { method: 'PATCH', json: patch, token });

/** DELETE /api/questions/:id, with the admin's token. */
export const deleteQuestion = ({ id, token }: { id: string; token: string }) =>
  apiCall({ parse: (data) => data }, API_PATHS.question(id), { method: 'DELETE', token });

/** A speaker's (or the admin's) change; every open question list shows it at once. */
export const usePatchQuestion = () =>
  useMutation({
    mutationFn: patchQuestion,
    onSuccess: ({ question }, _variables, _result, { client }) => {
      updateQuestionInLists(client, question);
    },
  });
