import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { LIMITS, POLL_INTERVALS } from '../../../../shared/constants.ts';
import { API_PATHS } from '../../../../shared/routes.ts';
import {
  type AdminQuestionFlag,
  type QuestionStatus,
  questionListSchema,
} from '../../../../shared/schemas/question.ts';
import { apiCall } from '../../../lib/api-client.ts';
import { deleteQuestion, patchQuestion } from '../../questions/api/patch-question.ts';
import { retryPollOnce } from './errors.ts';

export const ADMIN_QUESTIONS_KEY = ['admin', 'questions'] as const;

/** GET /api/admin/questions: every status, newest first, searched and filtered on the server. */
export const adminQuestionsQueryOptions = (
  token: string,
  search: string,
  status: QuestionStatus | undefined,
  flag: AdminQuestionFlag | undefined,
) =>
  queryOptions({
    queryKey: [...ADMIN_QUESTIONS_KEY, { search: search.trim().toLowerCase(), status, flag }],
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({ limit: String(LIMITS.pageSizeMax) });
      if (search.trim()) params.set('search', search.trim());
      if (status) params.set('status', status);
      if (flag) params.set('flag', flag);
      return apiCall(questionListSchema, `${API_PATHS.adminQuestions}?${params.toString()}`, {
        token,
        signal,
      });
    },
    // Polled like the memories (2 s, 304 when nothing changed); the socket makes it instant.
    refetchInterval: POLL_INTERVALS.adminList,
    placeholderData: keepPreviousData,
    retry: retryPollOnce,
  });

export const useAdminQuestions = (
  token: string,
  search: string,
  status: QuestionStatus | undefined,
  flag?: AdminQuestionFlag,
) => useQuery(adminQuestionsQueryOptions(token, search, status, flag));

/** Hide, publish or delete a question; the lists refresh once the server answered. */
export const useModerateQuestion = (token: string) =>
  useMutation({
    mutationFn: ({ id, action }: { id: string; action: 'hide' | 'publish' | 'delete' }) =>
      action === 'delete'
        ? deleteQuestion({ id, token })
        : patchQuestion({
            id,
            token,
            patch: { status: action === 'hide' ? 'hidden' : 'published' },
          }),
    onSettled: (_data, _error, _variables, _result, { client }) =>
      client.invalidateQueries({ queryKey: ADMIN_QUESTIONS_KEY }),
  });
