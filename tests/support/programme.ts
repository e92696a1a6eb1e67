import type { Room, Session, SessionCreate } from '../../src/shared/schemas/programme.ts';
import { API_PATHS } from '../../src/shared/routes.ts';

/** Seeds a programme through the admin's API, as the console would (for browser specs and benches). */
async function adminPost<T>(baseUrl: string, token: string, path: string, body: unknown) {
  const response = await fetch(`${baseUrl}${path}`, {
    method: path === API_PATHS.adminSettings ? 'PUT' : 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok)
    throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** Sets the event's time zone (an IANA name). */
export const setTimeZone = (baseUrl: string, token: string, timezone: string) =>
  adminPost<unknown>(baseUrl, token, API_PATHS.adminSettings, { timezone });

/** Adds a room. */
export const addRoom = (baseUrl: string, token: string, name: string) =>
  adminPost<Room>(baseUrl, token, API_PATHS.adminRooms, { name });

/** Adds a session (times ISO 8601 with an offset). */
export const addSession = (
  baseUrl: string,
  token: string,
  session: Pick<SessionCreate, 'title' | 'roomId' | 'startsAt' | 'endsAt'> &
    Partial<Pick<SessionCreate, 'speakerIds' | 'abstract'>>,
) => adminPost<Session>(baseUrl, token, API_PATHS.adminSessions, session);
