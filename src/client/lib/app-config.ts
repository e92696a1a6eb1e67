import { queryOptions, useQuery } from '@tanstack/react-query';
import { API_PATHS } from '../../shared/routes.ts';
import { type PublicConfig, publicConfigSchema } from '../../shared/schemas/config.ts';
import { apiCall } from './api-client.ts';
import { onPublicSettings, publicSettingsOf, takePublicSettings } from './live-branding.ts';
import { queryClient } from './query-client.ts';

const CONFIG_KEY = ['config'] as const;

export async function fetchAppConfig(): Promise<PublicConfig> {
  const config = await apiCall(publicConfigSchema, API_PATHS.config);
  takePublicSettings(publicSettingsOf(config));
  return config;
}

// The admin's public settings (name, colour, logo, the wall's pace) change while the app runs:
// each change, by event or by a read, is merged into this cache (decision 162).
onPublicSettings((settings) => {
  queryClient.setQueryData<PublicConfig>(CONFIG_KEY, (config) =>
    config ? { ...config, ...settings } : config,
  );
});

/**
 * GET /api/config: the limits are fixed for the life of the server, so it is fetched once; the
 * public settings in it are kept live by the live connection.
 */
export const appConfigQueryOptions = () =>
  queryOptions({
    queryKey: CONFIG_KEY,
    queryFn: fetchAppConfig,
    staleTime: Infinity,
    gcTime: Infinity,
    retry: 3,
  });

export const useAppConfig = () => useQuery(appConfigQueryOptions());
