import { type QueryClient, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { API_PATHS } from '../../../../shared/routes.ts';
import {
  type SettingsResponse,
  type SettingsUpdate,
  settingsResponseSchema,
} from '../../../../shared/schemas/settings.ts';
import { lastDayKept } from '../../../../shared/retention.ts';
import { apiCall } from '../../../lib/api-client.ts';
import { publicSettingsOf, takePublicSettings } from '../../../lib/live-branding.ts';
import { retryUnlessUnauthorized } from './errors.ts';

const ADMIN_SETTINGS_KEY = ['admin', 'settings'] as const;

/** GET /api/admin/settings. */
export const adminSettingsQueryOptions = (token: string) =>
  queryOptions({
    queryKey: ADMIN_SETTINGS_KEY,
    queryFn: ({ signal }) =>
      apiCall(settingsResponseSchema, API_PATHS.adminSettings, { token, signal }),
    retry: retryUnlessUnauthorized,
  });

export const useAdminSettings = (token: string) => useQuery(adminSettingsQueryOptions(token));

/** The settings as stored: the form's cache, and this page's own branding at once. */
function stored(client: QueryClient, settings: SettingsResponse) {
  client.setQueryData(ADMIN_SETTINGS_KEY, settings);
  const dataKeptUntil = lastDayKept(
    settings.retentionEndsAt === null ? null : new Date(settings.retentionEndsAt),
  );
  takePublicSettings(publicSettingsOf({ ...settings, dataKeptUntil }));
}

/** PUT /api/admin/settings: any of them; the answer is the settings as stored. */
export const useSaveSettings = (token: string) =>
  useMutation({
    mutationFn: (update: SettingsUpdate) =>
      apiCall(settingsResponseSchema, API_PATHS.adminSettings, {
        method: 'PUT',
        json: update,
        token,
      }),
    onSuccess: (settings, _variables, _result, { client }) => stored(client, settings),
  });

/** PUT /api/admin/settings/logo (one image, `logo`), or DELETE it with `null`. */
export const useSaveLogo = (token: string) =>
  useMutation({
    mutationFn: (logo: File | null) => {
      if (!logo) {
        return apiCall(settingsResponseSchema, API_PATHS.adminSettingsLogo, {
          method: 'DELETE',
          token,
        });
      }
      const form = new FormData();
      form.append('logo', logo);
      return apiCall(settingsResponseSchema, API_PATHS.adminSettingsLogo, {
        method: 'PUT',
        form,
        token,
      });
    },
    onSuccess: (settings, _variables, _result, { client }) => stored(client, settings),
  });
