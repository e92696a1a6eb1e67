import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { CLIENT_PATHS } from '../../../shared/routes.ts';
import { ensureAttendeeToken, useAttendeeToken } from '../../lib/attendee-token.ts';
import { useStoredUsername } from '../../lib/username.ts';

/**
 * Attendee screens need a joined username; without one the visitor goes to the join page, and
 * comes back here once joined (`?next=`).
 */
export function RequireUsername() {
  const location = useLocation();
  const [username] = useStoredUsername();
  const [token, setToken] = useAttendeeToken();
  // A username kept from an earlier visit gets its attendee token silently.
  useEffect(() => {
    if (username && !token) void ensureAttendeeToken(username, setToken).catch(() => undefined);
  }, [username, token, setToken]);
  if (!username) {
    const here = `${location.pathname}${location.search}`;
    const next = here === CLIENT_PATHS.home ? '' : `?next=${encodeURIComponent(here)}`;
    return <Navigate to={`${CLIENT_PATHS.join}${next}`} replace />;
  }
  return <Outlet />;
}
