import { type QueryClient, type QueryKey, queryOptions, useQuery } from '@tanstack/react-query';
import { LIMITS, POLL_INTERVALS } from '../../../../shared/constants.ts';
import { QUESTIONS_POLL_OVERLAP_MS } from '../../../../shared/qa-constants.ts';
import { API_PATHS } from '../../../../shared/routes.ts';
import { type Question, questionListSchema } from '../../../../shared/schemas/question.ts';
import { apiCall } from '../../../lib/api-client.ts';
import { mergeById } from '../../../lib/merge-by-id.ts';

export interface QuestionsParams {
  speakerId?: string | undefined;
  askerUsername?: string | undefined;
  since?: string | undefined;
  before?: string | undefined;
  limit?: number | undefined;
}

/** GET /api/questions/realtime: questions oldest first. */
export async function fetchQuestions(
  params: QuestionsParams,
  signal?: AbortSignal,
): Promise<Question[]> {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) search.set(name, String(value));
  }
  const query = search.toString();
  return apiCall(questionListSchema, `${API_PATHS.questionsRealtime}${query ? `?${query}` : ''}`, {
    signal,
  });
}

/** Which questions a list shows: one speaker's, one attendee's, or everybody's. */
export type QuestionsScope =
  { kind: 'speaker'; speakerId: string } | { kind: 'asker'; username: string } | { kind: 'all' };

/** Every cached list of questions starts with this key. */
export const QUESTIONS_KEY = ['questions'] as const;

export const questionsKey = (scope: QuestionsScope) =>
  scope.kind === 'speaker'
    ? ([...QUESTIONS_KEY, 'speaker', scope.speakerId] as const)
    : scope.kind === 'asker'
      ? ([...QUESTIONS_KEY, 'asker', scope.username] as const)
      : ([...QUESTIONS_KEY, 'all'] as const);

/** The scope of a cached list, read back from its key. */
function scopeOfKey(key: readonly unknown[]): QuestionsScope | null {
  const [, kind, value] = key;
  if (kind === 'all') return { kind: 'all' };
  if (kind === 'speaker' && typeof value === 'string') return { kind: 'speaker', speakerId: value };
  if (kind === 'asker' && typeof value === 'string') return { kind: 'asker', username: value };
  return null;
}

const scopeParams = (scope: QuestionsScope): QuestionsParams =>
  scope.kind === 'speaker'
    ? { speakerId: scope.speakerId }
    : scope.kind === 'asker'
      ? { askerUsername: scope.username }
      : {};

/** Whether a question belongs in the list of a scope. */
export const inScope = (scope: QuestionsScope, question: Question): boolean =>
  scope.kind === 'all' ||
  (scope.kind === 'speaker' && question.speakerId === scope.speakerId) ||
  (scope.kind === 'asker' && question.askerUsername === scope.username);

/** Adds a question to every loaded list it belongs in; lists not loaded yet fetch it anyway. */
export function mergeQuestionIntoLists(client: QueryClient, question: Question): void {
  for (const [key, data] of client.getQueriesData<Question[]>({ queryKey: QUESTIONS_KEY })) {
    const scope = scopeOfKey(key);
    if (!data || !scope || !inScope(scope, question)) continue;
    client.setQueryData<Question[]>(key, (current) => mergeById(current, [question]));
  }
}

/**
 * The first load takes the latest page; every poll after it asks only for what is newer than the
 * newest question held (less a small overlap) and merges it in by id, so a poll costs a few
 * bytes, or a 304, instead of the whole list.
 */
async function loadQuestions(
  client: QueryClient,
  queryKey: QueryKey,
  scope: QuestionsScope,
  signal: AbortSignal,
): Promise<Question[]> {
  const current = client.getQueryData<Question[]>(queryKey);
  const newest = current?.at(-1);
  if (!current || !newest) {
    return fetchQuestions({ ...scopeParams(scope), limit: LIMITS.pageSizeMax }, signal);
  }
  const since = new Date(Date.parse(newest.createdAt) - QUESTIONS_POLL_OVERLAP_MS).toISOString();
  const fresh = await fetchQuestions(
    { ...scopeParams(scope), since, limit: LIMITS.pageSizeMax },
    signal,
  );
  return mergeById(client.getQueryData<Question[]>(queryKey), fresh);
}

/** The questions of a scope, oldest first, polled every 5 s (the socket's fallback). */
export const questionsQueryOptions = (scope: QuestionsScope) =>
  queryOptions({
    queryKey: questionsKey(scope),
    queryFn: ({ client, queryKey, signal }) => loadQuestions(client, queryKey, scope, signal),
    refetchInterval: POLL_INTERVALS.questions,
  });

export const useQuestions = (scope: QuestionsScope | null) =>
  useQuery({
    ...questionsQueryOptions(scope ?? { kind: 'all' }),
    enabled: scope !== null,
  });

/**
 * Loads the page before the oldest question held and merges it in. Answers whether there may be
 * still older ones.
 */
export async function loadOlderQuestions(
  client: QueryClient,
  scope: QuestionsScope,
): Promise<boolean> {
  const key = questionsKey(scope);
  const oldest = client.getQueryData<Question[]>(key)?.[0];
  if (!oldest) return false;
  const older = await fetchQuestions({
    ...scopeParams(scope),
    before: oldest._id,
    limit: LIMITS.pageSizeMax,
  });
  client.setQueryData<Question[]>(key, (current) => mergeById(current, older));
  return older.length === LIMITS.pageSizeMax;
}
