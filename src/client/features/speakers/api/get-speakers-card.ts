import { queryOptions, useQuery } from '@tanstack/react-query';
import { POLL_INTERVALS, SPEAKERS_STALE_TIME } from '../../../../shared/constants.ts';
import { API_PATHS } from '../../../../shared/routes.ts';
import { type Speaker, speakerListSchema } from '../../../../shared/schemas/speaker.ts';
import { apiCall } from '../../../lib/api-client.ts';
import { SPEAKERS_KEY } from './get-speakers.ts';

export const fetchSpeakersCard = (signal?: AbortSignal): Promise<Speaker[]> =>
  apiCall(speakerListSchema, API_PATHS.speakersCard, { signal });

/** GET /api/speakerscard: the Q&A room's list (spec: refetched every 5 s, stale after 300 s). */
export const speakersCardQueryOptions = () =>
  queryOptions({
    queryKey: [...SPEAKERS_KEY, 'card'] as const,
    queryFn: ({ signal }) => fetchSpeakersCard(signal),
    staleTime: SPEAKERS_STALE_TIME,
    refetchInterval: POLL_INTERVALS.speakers,
  });

export const useSpeakersCard = (enabled = true) =>
  useQuery({ ...speakersCardQueryOptions(), enabled });
