import { queryOptions, useQuery } from '@tanstack/react-query';
import { API_PATHS } from '../../../../shared/routes.ts';
import { leaderboardSchema } from '../../../../shared/schemas/poll.ts';
import { apiCall } from '../../../lib/api-client.ts';

/**
 * GET /api/polls/:id/leaderboard: a quiz's best answerers. Its owners may read it at any time
 * (with their token), anyone else once it is closed and revealed. `voters` is part of the key:
 * each new answer (a `pollUpdated`) reads it again.
 */
export const pollLeaderboardQueryOptions = (id: string, voters: number, token?: string) =>
  queryOptions({
    queryKey: ['poll-leaderboard', id, voters, token ? 'owner' : 'public'] as const,
    queryFn: ({ signal }) =>
      apiCall(leaderboardSchema, API_PATHS.pollLeaderboard(id), { signal, token: token ?? null }),
    placeholderData: (previous) => previous,
  });

export const usePollLeaderboard = (id: string, voters: number, token?: string, enabled = true) =>
  useQuery({ ...pollLeaderboardQueryOptions(id, voters, token), enabled });
