import { useParams } from 'react-router';
import { SessionScreen } from '../../features/programme/session-screen.tsx';
import { SessionQuestions } from '../../features/questions/session-questions.tsx';

/** /sessions/:id: the talk (the programme's) with its Q&A (the questions') beside it. */
export default function SessionRoute() {
  const { id = '' } = useParams();
  return (
    <SessionScreen
      key={id}
      id={id}
      aside={(session) => <SessionQuestions key={session._id} session={session} />}
    />
  );
}
