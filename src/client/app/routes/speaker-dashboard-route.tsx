import { toastFailed } from '../../components/toast.ts';
import { OwnerPolls } from '../../features/polls/owner-polls.tsx';
import { SpeakerDashboardScreen } from '../../features/speakers/speaker-dashboard-screen.tsx';

const failed = (error: unknown) => toastFailed(error, 'The change did not go through; try again.');

/**
 * /speakers/:username/dashboard: the speaker's questions (the speakers') and, signed in, the
 * polls they run in each of their sessions (the polls').
 */
export default function SpeakerDashboardRoute() {
  return (
    <SpeakerDashboardScreen
      sessionPolls={(session, token) => (
        <OwnerPolls
          key={session._id}
          scope={{ sessionId: session._id }}
          token={token}
          title={`Polls · ${session.title}`}
          onFailed={failed}
        />
      )}
    />
  );
}
