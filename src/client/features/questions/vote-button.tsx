import { Button } from '@mantine/core';
import { IconThumbUp, IconThumbUpFilled } from '@tabler/icons-react';
import { QA_TEXTS } from '../../../shared/qa-constants.ts';
import type { Question } from '../../../shared/schemas/question.ts';
import { useVotes } from './votes-context.tsx';

/**
 * The thumb with the count: an attendee's one upvote on a question, toggled. Without a joined
 * attendee it shows the count only.
 */
export function VoteButton({ question, canVote }: { question: Question; canVote: boolean }) {
  const votes = useVotes();
  const on = votes.voted.has(question._id);
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
      onClick={() => votes.toggle(question._id, !on)}
    >
      {count}
    </Button>
  );
}
