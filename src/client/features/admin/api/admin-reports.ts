import { queryOptions, useQuery } from '@tanstack/react-query';
import { POLL_INTERVALS } from '../../../../shared/constants.ts';
import { API_PATHS } from '../../../../shared/routes.ts';
import { type ReportedMemory, reportedMemoriesSchema } from '../../../../shared/schemas/report.ts';
import { apiCall } from '../../../lib/api-client.ts';
import { retryPollOnce } from './errors.ts';

/** GET /api/admin/reports: the reported memories, most recently reported first. */
export const fetchAdminReports = (token: string, signal?: AbortSignal): Promise<ReportedMemory[]> =>
  apiCall(reportedMemoriesSchema, API_PATHS.adminReports, { token, signal });

export const ADMIN_REPORTS_KEY = ['admin', 'reports'] as const;

/** Polled every 2 s like the moderation lists (cheap: 304 when nothing changed). */
export const adminReportsQueryOptions = (token: string) =>
  queryOptions({
    queryKey: ADMIN_REPORTS_KEY,
    queryFn: ({ signal }) => fetchAdminReports(token, signal),
    refetchInterval: POLL_INTERVALS.adminList,
    retry: retryPollOnce,
  });

export const useAdminReports = (token: string) => useQuery(adminReportsQueryOptions(token));
