import { queryOptions, useQuery } from '@tanstack/react-query';
import { API_PATHS } from '../../shared/routes.ts';
import { type PublicConfig, publicConfigSchema } from '../../shared/schemas/config.ts';
import { apiCall } from './api-client.ts';

export const fetchAppConfig = (): Promise<PublicConfig> =>
  apiCall(publicConfigSchema, API_PATHS.config);

/** GET /api/config: fixed for the life of the server, so fetched once. */
export const appConfigQueryOptions = () =>
  queryOptions({
    queryKey: ['config'],
    queryFn: fetchAppConfig,
    staleTime: Infinity,
    gcTime: Infinity,
    retry: 3,
  });

export const useAppConfig = () => useQuery(appConfigQueryOptions());
