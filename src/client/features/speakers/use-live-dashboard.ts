import { useLiveUpdates } from '../../lib/live.ts';
import {
  dashboardKey,
  mergeDashboardQuestions,
  removeDashboardQuestion,
  updateDashboardQuestion,
} from './api/get-speaker-dashboard.ts';

/**
 * Keeps a speaker's dashboard live: the questions put to them arrive in their room and are
 * merged by id, changes replace them, deletions remove them; each connect of the socket
 * refetches the dashboard. With the speaker's token the dashboard watches the speaker's
 * moderation room (pending questions too). `speakerId` is unknown until the dashboard loaded.
 */
export function useLiveDashboard(
  username: string,
  speakerId: string | undefined,
  token: string | undefined,
): void {
  useLiveUpdates({
    on: {
      newQuestion: ({ question }, client) => {
        if (question.status === 'published') mergeDashboardQuestions(client, username, [question]);
        else updateDashboardQuestion(client, question);
      },
      questionUpdated: ({ question }, client) => updateDashboardQuestion(client, question),
      questionDeleted: ({ id }, client) => removeDashboardQuestion(client, id),
    },
    refetchOnConnect: [dashboardKey(username)],
    room: !speakerId
      ? null
      : token
        ? { room: 'moderation', token }
        : { room: 'speaker', speakerId },
  });
}
