import { type QueryClient, type QueryKey, queryOptions, useQuery } from '@tanstack/react-query';
import { LIMITS, POLL_INTERVALS } from '../../../../shared/constants.ts';
import { QUESTIONS_POLL_OVERLAP_MS } from '../../../../shared/qa-constants.ts';
import { FIRST_LISTS } from '../../../../shared/route-preloads.ts';
import { API_PATHS } from '../../../../shared/routes.ts';
import { type Question, questionListSchema } from '../../../../shared/schemas/question.ts';
import { apiCall } from '../../../lib/api-client.ts';
import { takePageAnswer } from '../../../lib/page-data.ts';
import { removeFromCachedLists } from '../../../lib/cached-lists.ts';
import { mergeById } from '../../../lib/merge-by-id.ts';
import { getAttendeeToken } from '../../../lib/attendee-token.ts';
import { isOwnQuestion } from '../own-questions.ts';

export interface QuestionsParams {
  speakerId?: string | undefined;
  sessionId?: string | undefined;
  askerUsername?: string | undefined;
  /** With `askerUsername` and that attendee's token: their anonymous questions too. */
  own?: 'true' | undefined;
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
    ...(params.own ? { token: getAttendeeToken() ?? null } : {}),
  });
}

/** Which questions a list shows: one speaker's, one session's, one attendee's, or everybody's. */
export type QuestionsScope =
  | { kind: 'speaker'; speakerId: string }
  | { kind: 'session'; sessionId: string }
  | { kind: 'asker'; username: string }
  | { kind: 'all' };

/** Every cached list of questions starts with this key. */
export const QUESTIONS_KEY = ['questions'] as const;

export const questionsKey = (scope: QuestionsScope) =>
  scope.kind === 'speaker'
    ? ([...QUESTIONS_KEY, 'speaker', scope.speakerId] as const)
    : scope.kind === 'session'
      ? ([...QUESTIONS_KEY, 'session', scope.sessionId] as const)
      : scope.kind === 'asker'
        ? ([...QUESTIONS_KEY, 'asker', scope.username] as const)
        : ([...QUESTIONS_KEY, 'all'] as const);

/** The scope of a cached list, read back from its key. */
function scopeOfKey(key: readonly unknown[]): QuestionsScope | null {
  const [, kind, value] = key;
  if (kind === 'all') return { kind: 'all' };
  if (kind === 'speaker' && typeof value === 'string') return { kind: 'speaker', speakerId: value };
  if (kind === 'session' && typeof value === 'string') return { kind: 'session', sessionId: value };
  if (kind === 'asker' && typeof value === 'string') return { kind: 'asker', username: value };
  return null;
}

const scopeParams = (scope: QuestionsScope): QuestionsParams =>
  scope.kind === 'speaker'
    ? { speakerId: scope.speakerId }
    : scope.kind === 'session'
      ? { sessionId: scope.sessionId }
      : scope.kind === 'asker'
        ? // The attendee's own list: with their token, their anonymous questions too (decision 233).
          { askerUsername: scope.username, own: getAttendeeToken() ? 'true' : undefined }
        : {};

/** Whether a question belongs in the list of a scope. */
export const inScope = (scope: QuestionsScope, question: Question): boolean =>
  scope.kind === 'all' ||
  (scope.kind === 'speaker' && question.speakerId === scope.speakerId) ||
  (scope.kind === 'session' && question.sessionId === scope.sessionId) ||
  (scope.kind === 'asker' && isOwnQuestion(question, scope.username));

/** Applies `change` to every loaded list that `question` belongs in. */
function changeListsOf(
  client: QueryClient,
  question: Question,
  change: (current: Question[] | undefined) => Question[],
): void {
  for (const [key, data] of client.getQueriesData<Question[]>({ queryKey: QUESTIONS_KEY })) {
    const scope = scopeOfKey(key);
    if (!data || !scope || !inScope(scope, question)) continue;
    client.setQueryData<Question[]>(key, change);
  }
}

/** Adds a question to every loaded list it belongs in; lists not loaded yet fetch it anyway. */
export function mergeQuestionIntoLists(client: QueryClient, question: Question): void {
  if (question.status !== 'published') return;
  changeListsOf(client, question, (current) => mergeById(current, [question]));
}

/**
 * A question as it is now (votes, answered, pinned, status) in every loaded list: replaced
 * where it is held, added where it belongs and is not (just published), removed where it may
 * no longer be shown (hidden, or back to pending).
 */
export function updateQuestionInLists(client: QueryClient, question: Question): void {
  if (question.status !== 'published') {
    removeQuestionFromLists(client, question._id);
    return;
  }
  changeListsOf(client, question, (current) => replaceById(current, question));
}

/** A question deleted (or no longer public) leaves every loaded list. */
export function removeQuestionFromLists(client: QueryClient, id: string): void {
  removeFromCachedLists<Question>(client, QUESTIONS_KEY, (question) => question._id === id);
}

/** A deleted speaker's questions leave every loaded list. */
export function removeSpeakerQuestions(client: QueryClient, speakerId: string): void {
  removeFromCachedLists<Question>(
    client,
    QUESTIONS_KEY,
    (question) => question.speakerId === speakerId,
  );
}

/** `list` with `question` in its place (by id), or added in order when it is not there. */
export function replaceById(current: Question[] | undefined, question: Question): Question[] {
  const list = current ?? [];
  const at = list.findIndex((item) => item._id === question._id);
  if (at === -1) return mergeById(list, [question]);
  const next = [...list];
  next[at] = question;
  return next;
}

/**
 * The Top tab: most votes first, the oldest first among equals (the server's `sort=top`).
 * Answered questions go to their own section, so they are left out here.
 */
export const byVotes = (a: Question, b: Question): number =>
  b.votes - a.votes || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0);

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
  const keyName = JSON.stringify(queryKey);
  // Now and then the whole list again (a 304 when nothing changed): votes, answers and
  // removals missed while the socket was away come back this way.
  if (!current || !newest || Date.now() - (lastFullLoad.get(keyName) ?? 0) > FULL_RELOAD_MS) {
    const held = new Set(current?.map((question) => question._id));
    const list = await fetchQuestions({ ...scopeParams(scope), limit: LIMITS.pageSizeMax }, signal);
    lastFullLoad.set(keyName, Date.now());
    // What the socket brought while the list was on its way is newer than the list: kept. What
    // was held before and is not in the list is gone (removed, or no longer published).
    const arrived = (client.getQueryData<Question[]>(queryKey) ?? []).filter(
      (question) => !held.has(question._id),
    );
    return arrived.length === 0 ? list : mergeById(list, arrived);
  }
  const since = new Date(Date.parse(newest.createdAt) - QUESTIONS_POLL_OVERLAP_MS).toISOString();
  const fresh = await fetchQuestions(
    { ...scopeParams(scope), since, limit: LIMITS.pageSizeMax },
    signal,
  );
  return mergeById(client.getQueryData<Question[]>(queryKey), fresh);
}

/** How often a poll reads a whole list rather than what is newer than the newest held. */
const FULL_RELOAD_MS = 30_000;
const lastFullLoad = new Map<string, number>();

/**
 * After a (re)connect every question list's next load is a whole one: what changed while the
 * socket was away (a pin moved, votes, a removal) is in no newer page, and waiting for the
 * 30 s reload showed a stale pin that long.
 */
export function catchUpQuestionLists(): void {
  lastFullLoad.clear();
}

/** The questions of a scope, oldest first, polled every 5 s (the socket's fallback). */
export const questionsQueryOptions = (scope: QuestionsScope) =>
  queryOptions({
    queryKey: questionsKey(scope),
    queryFn: ({ client, queryKey, signal }) => loadQuestions(client, queryKey, scope, signal),
    refetchInterval: POLL_INTERVALS.questions,
    // A speaker's questions the server rendered the Q&A room with (decision 185).
    initialData: () =>
      scope.kind === 'speaker'
        ? takePageAnswer(questionListSchema, FIRST_LISTS.speakerQuestions(scope.speakerId))
        : undefined,
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
