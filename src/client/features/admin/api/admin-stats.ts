import { queryOptions, useQuery } from '@tanstack/react-query';
import { API_PATHS } from '../../../../shared/routes.ts';
import { adminStatsSchema } from '../../../../shared/schemas/settings.ts';
import { apiCall } from '../../../lib/api-client.ts';
import { retryPollOnce } from './errors.ts';

export const ADMIN_STATS_KEY = ['admin', 'stats'] as const;

/** How often the overview's figures are read again while it is open (events also refresh it). */
export const STATS_POLL_MS = 5_000;

/** GET /api/admin/stats: the overview's figures, per speaker and per hour. */
export const adminStatsQueryOptions = (token: string) =>
  queryOptions({
    queryKey: ADMIN_STATS_KEY,
    queryFn: ({ signal }) => apiCall(adminStatsSchema, API_PATHS.adminStats, { token, signal }),
    refetchInterval: STATS_POLL_MS,
    retry: retryPollOnce,
  });

export const useAdminStats = (token: string) => useQuery(adminStatsQueryOptions(token));
