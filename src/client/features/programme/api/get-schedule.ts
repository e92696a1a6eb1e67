import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { API_PATHS } from '../../../../shared/routes.ts';
import { type Schedule, scheduleSchema } from '../../../../shared/schemas/programme.ts';
import { apiCall } from '../../../lib/api-client.ts';
import { type LiveHandlers, useLiveUpdates } from '../../../lib/live.ts';

/** The programme's one cache key: every screen that shows it shares the answer. */
export const SCHEDULE_KEY = ['schedule'] as const;

/**
 * How often an open programme is read again without an event: the socket's `scheduleUpdated`
 * is the fast path, this the fallback (an unchanged programme answers 304).
 */
export const SCHEDULE_POLL_MS = 60_000;

/** GET /api/schedule: the event's time zone, the rooms in order, the sessions by start. */
export const fetchSchedule = (signal?: AbortSignal): Promise<Schedule> =>
  apiCall(scheduleSchema, API_PATHS.schedule, { signal });

export const scheduleQueryOptions = () =>
  queryOptions({
    queryKey: SCHEDULE_KEY,
    queryFn: ({ signal }) => fetchSchedule(signal),
    refetchInterval: SCHEDULE_POLL_MS,
    // Projectors are often not the focused window: they keep following the programme.
    refetchIntervalInBackground: true,
  });

/** Reads the programme again when the cached one is older than `version` (or unknown). */
export function refreshScheduleFrom(client: QueryClient, version?: number): void {
  const cached = client.getQueryData<Schedule>(SCHEDULE_KEY);
  if (version !== undefined && cached && cached.version >= version) return;
  void client.invalidateQueries({ queryKey: SCHEDULE_KEY });
}

/**
 * What changes the programme on open screens: a re-import or an edit (`scheduleUpdated`), and
 * a deleted speaker, whose places on sessions go with them.
 */
export const scheduleLiveHandlers: LiveHandlers = {
  scheduleUpdated: ({ version }, client) => refreshScheduleFrom(client, version),
  speakerDeleted: (_payload, client) => refreshScheduleFrom(client),
};

/** The programme, kept live on the screen that shows it (read again on every connect too). */
export function useSchedule() {
  useLiveUpdates({ on: scheduleLiveHandlers, refetchOnConnect: [SCHEDULE_KEY] });
  return useQuery(scheduleQueryOptions());
}
