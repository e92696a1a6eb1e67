import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * Drops the items `gone` picks from every loaded list cached under `queryKey`. Lists holding
 * none of them are left alone, so the screens showing them do not render again.
 */
// T cannot be `unknown`: a predicate written for a question or a speaker would not fit it.
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters
export function removeFromCachedLists<T>(
  client: QueryClient,
  queryKey: QueryKey,
  gone: (item: T) => boolean,
): void {
  for (const [key, data] of client.getQueriesData<T[]>({ queryKey })) {
    if (!data?.some(gone)) continue;
    client.setQueryData<T[]>(key, (current) => current?.filter((item) => !gone(item)));
  }
}
