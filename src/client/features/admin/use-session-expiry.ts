import { useEffect } from 'react';
import { isUnauthorized } from './api/errors.ts';

/**
 * Whether the server refused the admin's token for what `error` came from; when it did,
 * `onExpired` ends the session (the console goes back to its login form).
 */
export function useSessionExpiry(error: unknown, onExpired: () => void): boolean {
  const expired = isUnauthorized(error);
  useEffect(() => {
    if (expired) onExpired();
  }, [expired, onExpired]);
  return expired;
}
