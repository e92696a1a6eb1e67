import { readLocalStorageValue, useLocalStorage } from '@mantine/hooks';
import { STORAGE_KEYS } from '../../shared/constants.ts';
import { storedText } from './local-storage.ts';
import { useStoredUsername } from './username.ts';

/** The attendee token, kept beside the username in local storage. */
const tokenStorage = storedText(STORAGE_KEYS.attendeeToken);

export const useAttendeeToken = () => useLocalStorage(tokenStorage);

/** The stored attendee token, outside React (votes and questions send it). */
export const getAttendeeToken = (): string | undefined =>
  readLocalStorageValue<string | undefined>(tokenStorage);

/**
 * The attendee token for a username, asked for when the browser has none yet (at join, or a
 * username kept from before tokens existed): silently, one call at a time, and a failure is
 * left for the next visit. The call's code loads only then, keeping the join page light.
 */
export async function ensureAttendeeToken(
  username: string,
  store: (token: string) => void,
): Promise<string | undefined> {
  // Throws only for a name the server refuses for good (a blocked word): the caller says so.
  const held = getAttendeeToken();
  if (held) return held;
  const { requestAttendeeToken } = await import('./attendee-join.ts');
  const token = await requestAttendeeToken(username);
  if (token) store(token);
  return token;
}

/** A call the server refused for its token (kept light: no import of the API client here). */
const isUnauthorized = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && 'status' in error && error.status === 401;

/**
 * Runs a call with the attendee token; when the server refuses the token (a server started with
 * another secret, a token expired), gets a new one for the stored username and tries once more.
 */
export function useWithAttendeeToken(): <T>(
  call: (token: string | undefined) => Promise<T>,
) => Promise<T> {
  const [username] = useStoredUsername();
  const [, setToken, removeToken] = useAttendeeToken();
  return async (call) => {
    try {
      return await call(getAttendeeToken());
    } catch (error) {
      if (!isUnauthorized(error) || !username) throw error;
      removeToken();
      const token = await ensureAttendeeToken(username, setToken);
      if (!token) throw error;
      return call(token);
    }
  };
}

/**
 * The attendee's id that a token names (its `sub`), read without checking it (the server does
 * that): what the device keys its own records of the attendee by. Undefined for no token or one
 * that does not read.
 */
export function attendeeIdOf(token: string | undefined): string | undefined {
  const payload = token?.split('.')[1];
  if (!payload) return undefined;
  try {
    const bytes = Uint8Array.from(atob(payload.replace(/-/g, '+').replace(/_/g, '/')), (char) =>
      char.charCodeAt(0),
    );
    const claims = JSON.parse(new TextDecoder().decode(bytes)) as unknown;
    return typeof claims === 'object' &&
      claims !== null &&
      'sub' in claims &&
      typeof claims.sub === 'string' &&
      claims.sub !== ''
      ? claims.sub
      : undefined;
  } catch {
    return undefined;
  }
}
