import { queryOptions, useQuery } from '@tanstack/react-query';
import { API_PATHS } from '../../../../shared/routes.ts';
import {
  type SessionWithSpeakers,
  sessionWithSpeakersSchema,
} from '../../../../shared/schemas/programme.ts';
import { ApiError, apiCall } from '../../../lib/api-client.ts';
import { useLiveUpdates } from '../../../lib/live.ts';

/** Every cached session starts with this key; one per session id. */
export const SESSION_KEY = ['session'] as const;
export const sessionKey = (id: string) => [...SESSION_KEY, id] as const;

/** GET /api/sessions/:id: the session with its speakers, in order (404 for an unknown one). */
export const fetchSession = (id: string, signal?: AbortSignal): Promise<SessionWithSpeakers> =>
  apiCall(sessionWithSpeakersSchema, API_PATHS.session(id), { signal });

export const sessionQueryOptions = (id: string) =>
  queryOptions({
    queryKey: sessionKey(id),
    queryFn: ({ signal }) => fetchSession(id, signal),
    // An unknown session is said at once; a network failure or a 5xx is tried again.
    retry: (failures, error) =>
      !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 3,
  });

/**
 * One session, kept live: any change of the programme (`scheduleUpdated`) or a deleted speaker
 * reads every cached session again, and so does every connect.
 */
export function useSession(id: string) {
  useLiveUpdates({
    on: {
      scheduleUpdated: (_payload, client) =>
        void client.invalidateQueries({ queryKey: SESSION_KEY }),
      speakerDeleted: (_payload, client) =>
        void client.invalidateQueries({ queryKey: SESSION_KEY }),
    },
    refetchOnConnect: [sessionKey(id)],
  });
  return useQuery(sessionQueryOptions(id));
}
