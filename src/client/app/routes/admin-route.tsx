import { AdminScreen } from '../../features/admin/admin-screen.tsx';
import { ConsolePolls } from '../../features/polls/console-polls.tsx';

/** The console's tabs that other features give it. */
const PANELS = { polls: ConsolePolls };

/** /borderlessadmin: the organiser's console (the admin's), with its Polls tab (the polls'). */
export default function AdminRoute() {
  return <AdminScreen panels={PANELS} />;
}
