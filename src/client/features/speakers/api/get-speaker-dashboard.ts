import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { LIMITS, POLL_INTERVALS } from '../../../../shared/constants.ts';
import { QUESTIONS_POLL_OVERLAP_MS } from '../../../../shared/qa-constants.ts';
import { API_PATHS } from '../../../../shared/routes.ts';
import type { Question } from '../../../../shared/schemas/question.ts';
import {
  type SpeakerDashboard,
  speakerDashboardSchema,
} from '../../../../shared/schemas/speaker.ts';
import { ApiError, apiCall } from '../../../lib/api-client.ts';
import { mergeById } from '../../../lib/merge-by-id.ts';
import { fetchQuestions } from '../../questions/api/get-questions.ts';

/** GET /api/speakers/:username/dashboard: the speaker with their questions, oldest first. */
export const fetchSpeakerDashboard = (
  username: string,
  signal?: AbortSignal,
): Promise<SpeakerDashboard> =>
  apiCall(speakerDashboardSchema, API_PATHS.speakerDashboard(username), { signal });

export const dashboardKey = (username: string) =>
  ['speaker-dashboard', username.toLowerCase()] as const;

/** Adds questions to a loaded dashboard, by id, without duplicates. */
export function mergeDashboardQuestions(
  client: QueryClient,
  username: string,
  questions: readonly Question[],
): void {
  client.setQueryData<SpeakerDashboard>(dashboardKey(username), (current) => {
    if (!current) return current;
    const relevant = questions.filter((question) => question.speakerId === current._id);
    const merged = mergeById(current.questions, relevant);
    return merged === current.questions ? current : { ...current, questions: merged };
  });
}

/**
 * The dashboard loads once, then polls every 5 s for the questions newer than the newest held
 * (spec: GET /api/questions/realtime every 5 s, through the questions feature's fetcher),
 * merging them by id; the socket adds them live.
 */
export const speakerDashboardQueryOptions = (username: string) =>
  queryOptions({
    queryKey: dashboardKey(username),
    queryFn: async ({ client, queryKey, signal }): Promise<SpeakerDashboard> => {
      const current = client.getQueryData<SpeakerDashboard>(queryKey);
      const newest = current?.questions.at(-1);
      if (!current) return fetchSpeakerDashboard(username, signal);
      const since = newest
        ? new Date(Date.parse(newest.createdAt) - QUESTIONS_POLL_OVERLAP_MS).toISOString()
        : current.createdAt;
      const fresh = await fetchQuestions(
        { speakerId: current._id, since, limit: LIMITS.pageSizeMax },
        signal,
      );
      const latest = client.getQueryData<SpeakerDashboard>(queryKey) ?? current;
      const merged = mergeById(latest.questions, fresh);
      return merged === latest.questions ? latest : { ...latest, questions: merged };
    },
    // Polls while the dashboard is shown; a dashboard that could not load is not polled.
    refetchInterval: (query) =>
      query.state.data === undefined && query.state.status === 'error'
        ? false
        : POLL_INTERVALS.dashboard,
    // An unknown speaker stays unknown; anything else is worth another try.
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 3,
  });

export const useSpeakerDashboard = (username: string) =>
  useQuery(speakerDashboardQueryOptions(username));
