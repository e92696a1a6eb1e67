import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * Abandons the reads in flight of the lists cached under `queryKey` that are already loaded: an
 * answer the server wrote before a removal would, landing after it, put the removed item back
 * until the next poll. Each list keeps what it holds (with the removal made around this call) and
 * its next poll reads it again; a list still loading for the first time is left to load.
 */
export function dropReadsInFlight(client: QueryClient, queryKey: QueryKey): void {
  void client.cancelQueries({
    queryKey,
    predicate: (query) => query.state.data !== undefined && query.state.fetchStatus === 'fetching',
  });
}

/**
 * Drops the items `gone` picks from every loaded list cached under `queryKey`. Lists holding
 * none of them are left alone, so the screens showing them do not render again. A read in
 * flight is abandoned first (`dropReadsInFlight`): it could bring the items back.
 */
// T cannot be `unknown`: a predicate written for a question or a speaker would not fit it.
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters
export function removeFromCachedLists<T>(
  client: QueryClient,
  queryKey: QueryKey,
  gone: (item: T) => boolean,
): void {
  dropReadsInFlight(client, queryKey);
  for (const [key, data] of client.getQueriesData<T[]>({ queryKey })) {
    if (!data?.some(gone)) continue;
    client.setQueryData<T[]>(key, (current) => current?.filter((item) => !gone(item)));
  }
}
