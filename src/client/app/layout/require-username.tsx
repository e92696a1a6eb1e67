import { Navigate, Outlet } from 'react-router';
import { CLIENT_PATHS } from '../../../shared/routes.ts';
import { useStoredUsername } from '../../lib/username.ts';

/** Attendee screens need a joined username; without one the visitor goes to the join page. */
export function RequireUsername() {
  const [username] = useStoredUsername();
  if (!username) return <Navigate to={CLIENT_PATHS.join} replace />;
  return <Outlet />;
}
