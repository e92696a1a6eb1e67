import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { LIMITS, POLL_INTERVALS } from '../../../../shared/constants.ts';
import { QUESTIONS_POLL_OVERLAP_MS } from '../../../../shared/qa-constants.ts';
import { API_PATHS } from '../../../../shared/routes.ts';
import type { Schedule } from '../../../../shared/schemas/programme.ts';
import type { Question } from '../../../../shared/schemas/question.ts';
import {
  type SpeakerDashboard,
  speakerDashboardSchema,
} from '../../../../shared/schemas/speaker.ts';
import { ApiError, apiCall } from '../../../lib/api-client.ts';
import { mergeById } from '../../../lib/merge-by-id.ts';
import { fetchQuestions } from '../../questions/api/get-questions.ts';
import { SCHEDULE_KEY } from '../../programme/api/get-schedule.ts';

/** The sessions a speaker is on, as the cached programme says (none when it is not loaded). */
function sessionIdsOf(client: QueryClient, speakerId: string): Set<string> {
  const schedule = client.getQueryData<Schedule>(SCHEDULE_KEY);
  return new Set(
    schedule?.sessions
      .filter((session) => session.speakerIds.includes(speakerId))
      .map((session) => session._id),
  );
}

/**
 * Whether a question is on a speaker's dashboard: asked of them, or in one of their sessions
 * (decision 223), or held there already.
 */
function belongsTo(client: QueryClient, dashboard: SpeakerDashboard, question: Question): boolean {
  return (
    question.speakerId === dashboard._id ||
    (question.sessionId !== null && sessionIdsOf(client, dashboard._id).has(question.sessionId)) ||
    dashboard.questions.some((held) => held._id === question._id)
  );
}

/**
 * GET /api/speakers/:username/dashboard: the speaker with their questions and their sessions',
 * oldest first; with the speaker's token, the pending and hidden ones too.
 */
export const fetchSpeakerDashboard = (
  username: string,
  signal?: AbortSignal,
  token?: string,
): Promise<SpeakerDashboard> =>
  apiCall(speakerDashboardSchema, API_PATHS.speakerDashboard(username), {
    signal,
    token: token ?? null,
  });

/** Every cached dashboard starts with this key. */
const DASHBOARD_KEY = 'speaker-dashboard';

export const dashboardKey = (username: string) => [DASHBOARD_KEY, username.toLowerCase()] as const;

/** How often a poll reads the whole dashboard again (votes and answers missed meanwhile). */
const FULL_RELOAD_MS = 30_000;
const lastFullLoad = new Map<string, number>();

/**
 * A question as it is now in the loaded dashboards of its speaker: replaced, added when it
 * may be shown there, removed when not (pending or hidden, on a dashboard without the token).
 */
export function updateDashboardQuestion(client: QueryClient, question: Question): void {
  for (const [key, data] of client.getQueriesData<SpeakerDashboard>({
    queryKey: [DASHBOARD_KEY],
  })) {
    if (!data || !belongsTo(client, data, question)) continue;
    const shown = question.status === 'published' || key[2] === 'private';
    client.setQueryData<SpeakerDashboard>(key, (current) => {
      if (!current) return current;
      const rest = current.questions.filter((item) => item._id !== question._id);
      if (!shown) return { ...current, questions: rest };
      const at = current.questions.findIndex((item) => item._id === question._id);
      if (at === -1) return { ...current, questions: mergeById(current.questions, [question]) };
      const questions = [...current.questions];
      questions[at] = question;
      return { ...current, questions };
    });
  }
}

/** A deleted question leaves every loaded dashboard. */
export function removeDashboardQuestion(client: QueryClient, id: string): void {
  for (const [key, data] of client.getQueriesData<SpeakerDashboard>({
    queryKey: [DASHBOARD_KEY],
  })) {
    if (!data?.questions.some((question) => question._id === id)) continue;
    client.setQueryData<SpeakerDashboard>(key, (current) =>
      current ? { ...current, questions: current.questions.filter((q) => q._id !== id) } : current,
    );
  }
}

/** Adds questions to a loaded dashboard, by id, without duplicates. */
export function mergeDashboardQuestions(
  client: QueryClient,
  username: string,
  questions: readonly Question[],
): void {
  for (const [key] of client.getQueriesData<SpeakerDashboard>({
    queryKey: dashboardKey(username),
  })) {
    client.setQueryData<SpeakerDashboard>(key, (current) => {
      if (!current) return current;
      const relevant = questions.filter((question) => belongsTo(client, current, question));
      const merged = mergeById(current.questions, relevant);
      return merged === current.questions ? current : { ...current, questions: merged };
    });
  }
}

/**
 * The dashboard loads once, then polls every 5 s for the questions newer than the newest held
 * (spec: GET /api/questions/realtime every 5 s, through the questions feature's fetcher),
 * merging them by id; the socket adds them live.
 */
export const speakerDashboardQueryOptions = (username: string, token?: string) =>
  queryOptions({
    queryKey: [...dashboardKey(username), token ? 'private' : 'public'] as const,
    queryFn: async ({ client, queryKey, signal }): Promise<SpeakerDashboard> => {
      const current = client.getQueryData<SpeakerDashboard>(queryKey);
      const newest = current?.questions.at(-1);
      const name = JSON.stringify(queryKey);
      // The speaker's own dashboard reads the whole of it (pending questions are not in the
      // public lists), and so does that of a speaker on the programme (their sessions'
      // questions are not in their list); anyone's, now and then (votes and answers missed).
      if (
        !current ||
        token ||
        sessionIdsOf(client, current._id).size > 0 ||
        Date.now() - (lastFullLoad.get(name) ?? 0) > FULL_RELOAD_MS
      ) {
        const loaded = await fetchSpeakerDashboard(username, signal, token);
        lastFullLoad.set(name, Date.now());
        return loaded;
      }
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

export const useSpeakerDashboard = (username: string, token?: string) =>
  useQuery(speakerDashboardQueryOptions(username, token));
