import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import type { WatchRequest } from '../../../../shared/events.ts';
import { API_PATHS } from '../../../../shared/routes.ts';
import { type Poll, pollListSchema } from '../../../../shared/schemas/poll.ts';
import { apiCall } from '../../../lib/api-client.ts';
import { removeFromCachedLists } from '../../../lib/cached-lists.ts';
import { type LiveHandlers, useLiveUpdates } from '../../../lib/live.ts';
import { mergeById } from '../../../lib/merge-by-id.ts';

/** Whose polls a list holds: one session's (`sessionId`), or the whole event's (`null`). */
export interface PollsScope {
  sessionId: string | null;
}

/**
 * Which view of the polls a list holds: everybody's (`public`: open and closed polls, results
 * only while revealed) or their owners' (`owner`: drafts, every result, a quiz's right options),
 * read with a speaker's or the admin's token (decision 220).
 */
export type PollsView = 'public' | 'owner';

/** Every cached list of polls starts with this key. */
export const POLLS_KEY = ['polls'] as const;

/**
 * A list's key: its scope and its view. The two views of one scope are two caches, so neither
 * ever overwrites the other. The owner's token is not part of the key: a screen asks for the
 * owner's view only of polls its token owns (a speaker's sessions, or anything for the admin).
 */
export const pollsKey = (scope: PollsScope, view: PollsView) =>
  [...POLLS_KEY, scope.sessionId ?? 'event', view] as const;

/** The scope and view of a cached list, read back from its key. */
function listOfKey(key: readonly unknown[]): { sessionId: string | null; view: PollsView } | null {
  const [, scope, view] = key;
  if (typeof scope !== 'string' || (view !== 'public' && view !== 'owner')) return null;
  return { sessionId: scope === 'event' ? null : scope, view };
}

/**
 * How often an open list is read again without an event: the socket's `pollUpdated` is the fast
 * path, this the fallback when it is away (an unchanged list answers 304 from the browser's
 * cache, as every list does: the server tags it and the browser revalidates).
 */
export const POLLS_POLL_MS = 5_000;

/**
 * GET /api/polls: a session's polls (`sessionId`) or the event-wide ones (`event=1`), oldest
 * first. Without a token, everybody's view; with a speaker's or the admin's, the owner's.
 */
export function fetchPolls(
  scope: PollsScope,
  ownerToken?: string | null,
  signal?: AbortSignal,
): Promise<Poll[]> {
  const query =
    scope.sessionId === null ? 'event=1' : `sessionId=${encodeURIComponent(scope.sessionId)}`;
  return apiCall(pollListSchema, `${API_PATHS.polls}?${query}`, {
    token: ownerToken ?? null,
    signal,
  });
}

/**
 * The polls of a scope, in everybody's view or (with `ownerToken`) in the owner's, polled
 * every 5 s behind the socket. A projector adds `refetchIntervalInBackground: true`.
 */
export const pollsQueryOptions = (scope: PollsScope, ownerToken?: string | null) =>
  queryOptions({
    queryKey: pollsKey(scope, ownerToken ? 'owner' : 'public'),
    queryFn: ({ signal }) => fetchPolls(scope, ownerToken, signal),
    refetchInterval: POLLS_POLL_MS,
  });

/**
 * Which view a poll from an event is, by what it holds: `owner` when only an owner could see it
 * (a draft, results while hidden, a quiz's right options before it closes, open answers with
 * their moderation), `public` when an owner would see more (results hidden, a quiz without its
 * right options, open answers without their moderation), `both` when the two views are the
 * same. The server sends each socket one view of a poll; this keeps each in its own lists.
 */
export function pollViewOf(poll: Poll): PollsView | 'both' {
  if (poll.state === 'draft' || poll.correctOptionIds !== undefined) return 'owner';
  if (poll.type === 'quiz') return 'public';
  if (!poll.resultsVisible) return poll.results === null ? 'public' : 'owner';
  if (poll.results && 'answers' in poll.results) {
    const first = poll.results.answers[0];
    if (first) return 'hidden' in first ? 'owner' : 'public';
  }
  return 'both';
}

/** `list` with `poll` in its place (by id), or added in order when it is not there. */
function withPoll(current: Poll[] | undefined, poll: Poll): Poll[] {
  const list = current ?? [];
  const at = list.findIndex((item) => item._id === poll._id);
  if (at === -1) return mergeById(list, [poll]);
  const next = [...list];
  next[at] = poll;
  return next;
}

/**
 * A poll as it is now in every loaded list of its scope whose view it is: replaced where it is
 * held, added where it is not yet (just opened). A public list never takes an owner's view
 * (a draft, hidden results) and an owner's list never takes the public one.
 */
export function updatePollInLists(client: QueryClient, poll: Poll): void {
  const view = pollViewOf(poll);
  for (const [key, data] of client.getQueriesData<Poll[]>({ queryKey: POLLS_KEY })) {
    const list = listOfKey(key);
    if (!data || !list || list.sessionId !== poll.sessionId) continue;
    if (view !== 'both' && view !== list.view) continue;
    client.setQueryData<Poll[]>(key, (current) => withPoll(current, poll));
  }
}

/** A deleted poll leaves every loaded list. */
export function removePollFromLists(client: QueryClient, id: string): void {
  removeFromCachedLists<Poll>(client, POLLS_KEY, (poll) => poll._id === id);
}

/** What the socket changes in the poll lists: the same for every screen that shows polls. */
export const pollLiveHandlers: LiveHandlers = {
  pollUpdated: ({ poll }, client) => updatePollInLists(client, poll),
  pollDeleted: ({ id }, client) => removePollFromLists(client, id),
};

/**
 * The room a list's events come through: an owner's moderation room (the owner's view of the
 * polls that token owns), a session's room (its polls' public view), or none for the event-wide
 * polls' public view, which every socket gets.
 */
export const pollsRoom = (scope: PollsScope, ownerToken?: string | null): WatchRequest | null =>
  ownerToken
    ? { room: 'moderation', token: ownerToken }
    : scope.sessionId === null
      ? null
      : { room: 'session', sessionId: scope.sessionId };

/**
 * The polls of a scope (`null`: none, nothing read), kept live while shown: the socket's events
 * are merged by id into the list of their view, and every connect reads the list again (what
 * was missed meanwhile). With `ownerToken` (a speaker's of the session, or the admin's), the
 * owner's view: drafts, hidden results, a quiz's right options.
 */
export function usePolls(scope: PollsScope | null, ownerToken?: string | null) {
  const options = pollsQueryOptions(scope ?? { sessionId: null }, ownerToken);
  useLiveUpdates({
    on: pollLiveHandlers,
    refetchOnConnect: scope ? [options.queryKey] : [],
    room: scope ? pollsRoom(scope, ownerToken) : null,
  });
  return useQuery({ ...options, enabled: scope !== null });
}
