import { queryOptions, useQuery } from '@tanstack/react-query';
import { POLL_INTERVALS } from '../../../../shared/constants.ts';
import { API_PATHS } from '../../../../shared/routes.ts';
import { type Speaker, speakerListSchema } from '../../../../shared/schemas/speaker.ts';
import { apiRequest } from '../../../lib/api-client.ts';

export const fetchSpeakers = async (signal?: AbortSignal): Promise<Speaker[]> =>
  speakerListSchema.parse(await apiRequest(API_PATHS.speakers, { signal }));

/** GET /speakers: the ask dialog's dropdown (spec: refetched every 3 s). */
export const speakersQueryOptions = () =>
  queryOptions({
    queryKey: ['speakers', 'dropdown'] as const,
    queryFn: ({ signal }) => fetchSpeakers(signal),
  });

/** The dropdown's speakers, refetched every 3 s while the dialog is open. */
export const useSpeakers = (open: boolean) =>
  useQuery({
    ...speakersQueryOptions(),
    enabled: open,
    refetchInterval: open ? POLL_INTERVALS.speakerDropdown : false,
  });
