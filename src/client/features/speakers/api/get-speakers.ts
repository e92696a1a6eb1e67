import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { POLL_INTERVALS, SPEAKERS_STALE_TIME, STORAGE_KEYS } from '../../../../shared/constants.ts';
import { FIRST_LISTS } from '../../../../shared/route-preloads.ts';
import { API_PATHS } from '../../../../shared/routes.ts';
import { type Speaker, speakerListSchema } from '../../../../shared/schemas/speaker.ts';
import { apiCall } from '../../../lib/api-client.ts';
import { takePageAnswer } from '../../../lib/page-data.ts';
import { removeFromCachedLists } from '../../../lib/cached-lists.ts';
import { mergeById } from '../../../lib/merge-by-id.ts';

/** Every cached list of speakers (the ask dialog's and the Q&A room's) starts with this key. */
export const SPEAKERS_KEY = ['speakers'] as const;

/** A speaker as the ask dialog offers them: enough to choose them and to send the question. */
export type SpeakerChoice = Pick<Speaker, '_id' | 'name'>;

const speakerChoicesSchema = z.array(z.object({ _id: z.string(), name: z.string() }));

/** What was last written to local storage, so an unchanged list is not written again. */
let remembered: string | undefined;

/**
 * Keeps the ids and names of the speakers just fetched in local storage: a phone that goes
 * offline, even one that starts the app again without a network, can still ask them.
 */
function rememberSpeakers(list: readonly Speaker[]): void {
  const text = JSON.stringify(list.map(({ _id, name }) => ({ _id, name })));
  if (text === remembered) return;
  remembered = text;
  try {
    localStorage.setItem(STORAGE_KEYS.speakersSeen, text);
  } catch {
    // Storage full or refused: the speakers are offered while online only, as before.
  }
}

/**
 * The speakers this phone saw last, when it cannot ask the server: a list already loaded in
 * this tab (the Q&A room's, the dialog's), else the one kept in local storage.
 */
export function speakersSeen(client: QueryClient): SpeakerChoice[] | undefined {
  for (const [, data] of client.getQueriesData<Speaker[]>({ queryKey: SPEAKERS_KEY })) {
    if (data) return data;
  }
  try {
    const stored = localStorage.getItem(STORAGE_KEYS.speakersSeen);
    if (!stored) return undefined;
    const parsed = speakerChoicesSchema.safeParse(JSON.parse(stored));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** One of the two public lists of speakers, cached under `SPEAKERS_KEY` and remembered. */
const speakerList = (path: string, name: string) =>
  queryOptions({
    queryKey: [...SPEAKERS_KEY, name] as const,
    queryFn: async ({ signal }): Promise<Speaker[]> => {
      const list = await apiCall(speakerListSchema, path, { signal });
      rememberSpeakers(list);
      return list;
    },
  });

/** GET /speakers: the ask dialog's dropdown (spec: refetched every 3 s). */
const speakersQueryOptions = () => speakerList(API_PATHS.speakers, 'dropdown');

/**
 * Loads the dropdown's speakers once, ahead of the dialog, when this tab has no list of them
 * yet: wherever "Ask a Question" is offered, the phone knows the speakers before it may lose
 * the network. A list loaded in the last 5 minutes is not asked for again.
 */
export function prefetchSpeakers(client: QueryClient): void {
  if (client.getQueriesData<Speaker[]>({ queryKey: SPEAKERS_KEY }).some(([, data]) => data)) {
    return;
  }
  client
    .query({ ...speakersQueryOptions(), staleTime: SPEAKERS_STALE_TIME })
    .catch(() => undefined);
}

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
