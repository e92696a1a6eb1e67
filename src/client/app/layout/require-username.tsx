import { useEffect } from 'react';
import { Navigate, Outlet } from 'react-router';
import { CLIENT_PATHS } from '../../../shared/routes.ts';
import { ensureAttendeeToken, useAttendeeToken } from '../../lib/attendee-token.ts';
import { useStoredUsername } from '../../lib/username.ts';

/** Attendee screens need a joined username; without one the visitor goes to the join page. */
export function RequireUsername() {
  const [username] = useStoredUsername();
  const [token, setToken] = useAttendeeToken();
  // A username kept from an earlier visit gets its attendee token silently.
  useEffect(() => {
    if (username && !token) void ensureAttendeeToken(username, setToken);
  }, [username, token, setToken]);
  if (!username) return <Navigate to={CLIENT_PATHS.join} replace />;
  return <Outlet />;
}
