import { useEffect } from 'react';
import { useParams } from 'react-router';
import { PollList } from '../../features/polls/poll-list.tsx';
import { SessionScreen } from '../../features/programme/session-screen.tsx';
import { SessionQuestions } from '../../features/questions/session-questions.tsx';
import { useFollowedSession } from '../../features/programme/api/followed-session.ts';
import { TalkReactions } from './talk-reactions.tsx';

/**
 * /sessions/:id: the talk (the programme's) with its reactions (while it is on), its polls (the
 * polls') and its Q&A (the questions') beside it.
 */
export default function SessionRoute() {
  const { id = '' } = useParams();
  const [, follow] = useFollowedSession();
  useEffect(() => {
    if (id) follow(id);
  }, [id, follow]);
  return (
    <SessionScreen
      key={id}
      id={id}
      aside={(session) => (
        <>
          <TalkReactions session={session} />
          <PollList key={`polls-${session._id}`} scope={{ sessionId: session._id }} />
          <SessionQuestions key={session._id} session={session} />
        </>
      )}
    />
  );
}
