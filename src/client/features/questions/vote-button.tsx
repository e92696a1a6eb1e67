import { Button } from '@mantine/core';
import { IconThumbUp, IconThumbUpFilled } from '@tabler/icons-react';
import type { Question } from '../../../shared/schemas/question.ts';
import { useT } from '../../i18n/language.ts';
import { useVotes } from './votes-context.tsx';

/**
 * The thumb with the count: an attendee's one upvote on a question, toggled. Without a joined
 * attendee it shows the count only.
 */
export function VoteButton({ question, canVote }: { question: Question; canVote: boolean }) {
  const t = useT();
  const votes = useVotes();
  const on = votes.voted.has(question._id);
  const count = question.votes;
  const label = t('qa.upvoteLabel', { count });
  return (
    <Button
      size="sm"
      px="sm"
      variant={on ? 'filled' : 'light'}
      radius="xl"
      aria-pressed={on}
      aria-label={label}
      title={canVote ? label : t('qa.votesCount', { count })}
      disabled={!canVote || question.answered}
      leftSection={on ? <IconThumbUpFilled size={16} /> : <IconThumbUp size={16} />}
      onClick={() => votes.toggle(question._id, !on)}
    >
      {count}
    </Button>
  );
}
