import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { POLL_INTERVALS, SPEAKERS_STALE_TIME } from '../../../../shared/constants.ts';
import { FIRST_LISTS } from '../../../../shared/route-preloads.ts';
import { API_PATHS } from '../../../../shared/routes.ts';
import { type Speaker, speakerListSchema } from '../../../../shared/schemas/speaker.ts';
import { apiCall } from '../../../lib/api-client.ts';
import { takePageAnswer } from '../../../lib/page-data.ts';
import { removeFromCachedLists } from '../../../lib/cached-lists.ts';
import { mergeById } from '../../../lib/merge-by-id.ts';

/** Every cached list of speakers (the ask dialog's and the Q&A room's) starts with this key. */
export const SPEAKERS_KEY = ['speakers'] as const;

/** One of the two public lists of speakers, cached under `SPEAKERS_KEY`. */
const speakerList = (path: string, name: string) =>
  queryOptions({
    queryKey: [...SPEAKERS_KEY, name] as const,
    queryFn: ({ signal }): Promise<Speaker[]> => apiCall(speakerListSchema, path, { signal }),
  });

/** GET /speakers: the ask dialog's dropdown (spec: refetched every 3 s). */
const speakersQueryOptions = () => speakerList(API_PATHS.speakers, 'dropdown');

/** GET /api/speakerscard: the Q&A room's list (spec: refetched every 5 s, stale after 300 s). */
export const useSpeakersCard = (enabled = true) =>
  useQuery({
    ...speakerList(API_PATHS.speakersCard, 'card'),
    enabled,
    staleTime: SPEAKERS_STALE_TIME,
    refetchInterval: POLL_INTERVALS.speakers,
    // The speakers the server rendered the Q&A room with (decision 185).
    initialData: () => takePageAnswer(speakerListSchema, FIRST_LISTS.speakersCard),
  });

/** The dropdown's speakers, refetched every 3 s while the dialog is open. */
export const useSpeakers = (open: boolean) =>
  useQuery({
    ...speakersQueryOptions(),
    enabled: open,
    refetchInterval: open ? POLL_INTERVALS.speakerDropdown : false,
  });

/** Speakers lists are sorted by name, as the server sorts them. */
const byName = (a: Speaker, b: Speaker) =>
  a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || (a._id < b._id ? -1 : 1);

/** A deleted speaker leaves every loaded list of speakers. */
export function removeSpeakerFromLists(client: QueryClient, id: string): void {
  removeFromCachedLists<Speaker>(client, SPEAKERS_KEY, (speaker) => speaker._id === id);
}

/** Adds a speaker to every loaded list of speakers, once, in its place by name. */
export function mergeSpeakerIntoLists(client: QueryClient, speaker: Speaker): void {
  for (const [key, data] of client.getQueriesData<Speaker[]>({ queryKey: SPEAKERS_KEY })) {
    if (!data) continue;
    client.setQueryData<Speaker[]>(key, (current) => mergeById(current, [speaker], byName));
  }
}
