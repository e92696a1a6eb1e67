import { PollList } from '../../features/polls/poll-list.tsx';
import QaRoomScreen from '../../features/questions/qa-room-screen.tsx';

/** /speakerscard, the Q&A room (the questions'), with a talk's polls (the polls') above its chat. */
export default function QaRoomRoute() {
  return (
    <QaRoomScreen
      sessionAside={(sessionId) => (
        <PollList key={sessionId} scope={{ sessionId }} headingOrder={3} />
      )}
    />
  );
}
