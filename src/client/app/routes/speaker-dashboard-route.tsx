import { toastFailed } from '../../components/toast.ts';
import { OwnerPolls } from '../../features/polls/owner-polls.tsx';
import { translate, useT } from '../../i18n/language.ts';
import { SpeakerDashboardScreen } from '../../features/speakers/speaker-dashboard-screen.tsx';

const failed = (error: unknown) => toastFailed(error, translate('polls.changeFailed'));

/**
 * /speakers/:username/dashboard: the speaker's questions (the speakers') and, signed in, the
 * polls they run in each of their sessions (the polls').
 */
export default function SpeakerDashboardRoute() {
  const t = useT();
  return (
    <SpeakerDashboardScreen
      sessionPolls={(session, token) => (
        <OwnerPolls
          key={session._id}
          scope={{ sessionId: session._id }}
          token={token}
          title={t('polls.sessionPollsTitle', { title: session.title })}
          onFailed={failed}
        />
      )}
    />
  );
}
