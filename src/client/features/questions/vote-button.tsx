import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconThumbUp, IconThumbUpFilled } from '@tabler/icons-react';
import { TOAST_AUTO_CLOSE } from '../../../shared/constants.ts';
import { QA_TEXTS } from '../../../shared/qa-constants.ts';
import type { Question } from '../../../shared/schemas/question.ts';
import { errorMessage } from '../../lib/api-client.ts';
import { useVote, useVotedQuestions } from './api/vote-question.ts';

/**
 * The thumb with the count: an attendee's one upvote on a question, toggled. Without a joined
 * attendee it shows the count only.
 */
export function VoteButton({ question, canVote }: { question: Question; canVote: boolean }) {
  const [voted] = useVotedQuestions();
  const vote = useVote();
  const on = voted.includes(question._id);
  const count = question.votes;
  const label = `${QA_TEXTS.upvote}: ${count} vote${count === 1 ? '' : 's'}`;
  return (
    <Button
      size="sm"
      px="sm"
      variant={on ? 'filled' : 'light'}
      radius="xl"
      aria-pressed={on}
      aria-label={label}
      title={canVote ? label : `${count} votes`}
      disabled={!canVote || question.answered}
      leftSection={on ? <IconThumbUpFilled size={16} /> : <IconThumbUp size={16} />}
      onClick={() =>
        vote.mutate(
          { id: question._id, on: !on },
          {
            onError: (error) =>
              notifications.show({
                color: 'red',
                message: errorMessage(error, 'The vote did not go through; try again.'),
                autoClose: TOAST_AUTO_CLOSE,
              }),
          },
        )
      }
    >
      {count}
    </Button>
  );
}
