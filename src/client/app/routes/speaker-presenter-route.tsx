import { StagePoll } from '../../features/polls/stage-poll.tsx';
import { useSchedule } from '../../features/programme/api/get-schedule.ts';
import { isOnNow } from '../../features/programme/api/sessions-now.ts';
import PresenterScreen from '../../features/questions/presenter-screen.tsx';
import { ReactionBurst } from '../../features/reactions/reaction-burst.tsx';
import { useNow } from '../../lib/use-now.ts';

/**
 * What a speaker's projector follows beside their questions: during their talk (by the clock),
 * its reactions and its poll; else an open poll of the whole event, as a room's projector shows
 * one between talks.
 */
function SpeakerTalkLive({ speakerId }: { speakerId: string }) {
  const schedule = useSchedule().data;
  const now = useNow();
  const talk = schedule?.sessions.find(
    (session) => session.speakerIds.includes(speakerId) && isOnNow(session, now),
  );
  if (!talk) return <StagePoll scope={{ sessionId: null }} openOnly />;
  return (
    <>
      <ReactionBurst sessionId={talk._id} />
      <StagePoll scope={{ sessionId: talk._id }} />
    </>
  );
}

/**
 * /speakers/:username/present: the speaker's projector (the questions') with their talk's
 * reactions and poll (the reactions' and the polls').
 */
export default function SpeakerPresenterRoute() {
  return <PresenterScreen live={(speakerId) => <SpeakerTalkLive speakerId={speakerId} />} />;
}
