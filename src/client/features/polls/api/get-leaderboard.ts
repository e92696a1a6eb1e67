import { queryOptions, useQuery } from '@tanstack/react-query';
import { API_PATHS } from '../../../../shared/routes.ts';
import { type Poll, leaderboardSchema } from '../../../../shared/schemas/poll.ts';
import { apiCall } from '../../../lib/api-client.ts';

/** GET /api/polls/:id/leaderboard: a quiz's best scores, most points first. */
export const fetchLeaderboard = (pollId: string, token?: string | null, signal?: AbortSignal) =>
  apiCall(leaderboardSchema, API_PATHS.pollLeaderboard(pollId), { token: token ?? null, signal });

/**
 * A quiz's leaderboard. Its key names the poll's answers and state, so a change of either (an
 * answer more, a quiz closed or opened again) reads it again; nothing else does.
 */
export const leaderboardQueryOptions = (poll: Poll, token?: string | null) =>
  queryOptions({
    queryKey: ['pollLeaderboard', poll._id, poll.state, poll.voters, token ? 'owner' : 'public'],
    queryFn: ({ signal }) => fetchLeaderboard(poll._id, token, signal),
    staleTime: Number.POSITIVE_INFINITY,
  });

/**
 * Whether everybody may read a quiz's leaderboard: once it is closed with its results shown
 * (before, it would tell who is right; the server answers 409).
 */
export const leaderboardIsPublic = (poll: Poll): boolean =>
  poll.type === 'quiz' && poll.state === 'closed' && poll.resultsVisible;

/** A closed quiz's leaderboard for everybody (nothing read before it may be). */
export const useLeaderboard = (poll: Poll) =>
  useQuery({ ...leaderboardQueryOptions(poll), enabled: leaderboardIsPublic(poll) });
