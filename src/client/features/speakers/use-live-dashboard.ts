import { useLiveUpdates } from '../../lib/live.ts';
import { dashboardKey, mergeDashboardQuestions } from './api/get-speaker-dashboard.ts';

/**
 * Keeps a speaker's dashboard live: the questions put to them arrive in their room and are
 * merged by id; each connect of the socket refetches the dashboard. `speakerId` is unknown
 * until the dashboard has loaded.
 */
export function useLiveDashboard(username: string, speakerId: string | undefined): void {
  useLiveUpdates({
    on: {
      newQuestion: ({ question }, client) => mergeDashboardQuestions(client, username, [question]),
    },
    refetchOnConnect: [dashboardKey(username)],
    room: speakerId ? { room: 'speaker', speakerId } : null,
  });
}
