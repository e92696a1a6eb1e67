import { queryOptions, useQuery } from '@tanstack/react-query';
import { API_PATHS } from '../../../../shared/routes.ts';
import { type AdminAuditEntry, adminAuditEntrySchema } from '../../../../shared/schemas/admin.ts';
import { apiCall } from '../../../lib/api-client.ts';
import { retryUnlessUnauthorized } from './errors.ts';

const RECENT = 50;

/** GET /api/admin/audit: the latest deletions, newest first. */
export const fetchAdminAudit = (token: string, signal?: AbortSignal): Promise<AdminAuditEntry[]> =>
  apiCall(adminAuditEntrySchema.array(), `${API_PATHS.adminAudit}?limit=${RECENT}`, {
    token,
    signal,
  });

export const ADMIN_AUDIT_KEY = ['admin', 'audit'] as const;

export const adminAuditQueryOptions = (token: string) =>
  queryOptions({
    queryKey: ADMIN_AUDIT_KEY,
    queryFn: ({ signal }) => fetchAdminAudit(token, signal),
    retry: retryUnlessUnauthorized,
  });

export const useAdminAudit = (token: string) => useQuery(adminAuditQueryOptions(token));
