import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { API_PATHS } from '../../../../shared/routes.ts';
import { type SettingsUpdate, settingsSchema } from '../../../../shared/schemas/settings.ts';
import { apiCall } from '../../../lib/api-client.ts';
import { retryUnlessUnauthorized } from './errors.ts';

const ADMIN_SETTINGS_KEY = ['admin', 'settings'] as const;

/** GET /api/admin/settings. */
export const adminSettingsQueryOptions = (token: string) =>
  queryOptions({
    queryKey: ADMIN_SETTINGS_KEY,
    queryFn: ({ signal }) => apiCall(settingsSchema, API_PATHS.adminSettings, { token, signal }),
    retry: retryUnlessUnauthorized,
  });

export const useAdminSettings = (token: string) => useQuery(adminSettingsQueryOptions(token));

/** PUT /api/admin/settings: any of them; the answer is the settings as stored. */
export const useSaveSettings = (token: string) =>
  useMutation({
    mutationFn: (update: SettingsUpdate) =>
      apiCall(settingsSchema, API_PATHS.adminSettings, { method: 'PUT', json: update, token }),
    onSuccess: (settings, _variables, _result, { client }) => {
      client.setQueryData(ADMIN_SETTINGS_KEY, settings);
    },
  });
