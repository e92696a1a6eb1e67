import { queryOptions, useQuery } from '@tanstack/react-query';
import { API_PATHS } from '../../../../shared/routes.ts';
import {
  type AdminCheckResponse,
  adminCheckResponseSchema,
} from '../../../../shared/schemas/admin.ts';
import { apiCall } from '../../../lib/api-client.ts';
import { retryUnlessUnauthorized } from './errors.ts';

/** GET /api/admin: is this token still good? */
export const fetchAdminCheck = (token: string, signal?: AbortSignal): Promise<AdminCheckResponse> =>
  apiCall(adminCheckResponseSchema, API_PATHS.adminCheck, { token, signal });

/** Checked once per token; a refused token ends the session (see the admin screen). */
export const adminCheckQueryOptions = (token: string) =>
  queryOptions({
    queryKey: ['admin', 'check', token],
    queryFn: ({ signal }) => fetchAdminCheck(token, signal),
    staleTime: Infinity,
    retry: retryUnlessUnauthorized,
  });

export const useAdminCheck = (token: string) => useQuery(adminCheckQueryOptions(token));
