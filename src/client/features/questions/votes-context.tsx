import { type ReactNode, createContext, use, useMemo } from 'react';
import { useVote, useVotedQuestions } from './api/vote-question.ts';
import { toastFailed } from '../../components/toast.ts';
import { translate } from '../../i18n/language.ts';

interface Votes {
  /** The questions this attendee upvoted. */
  voted: ReadonlySet<string>;
  /** Votes for a question (`on`) or takes the vote back; a failure says so in a toast. */
  toggle(id: string, on: boolean): void;
}

const VotesContext = createContext<Votes | null>(null);

/**
 * The attendee's votes for every thumb of a list: read from storage once for the list, and one
 * mutation for all of them, not one of each per question (a hundred thumbs made the Q&A room's
 * first render a long task).
 */
export function VotesProvider({ children }: { children: ReactNode }) {
  const [voted] = useVotedQuestions();
  const { mutate } = useVote();
  const votes = useMemo<Votes>(
    () => ({
      voted: new Set(voted),
      toggle: (id, on) =>
        mutate(
          { id, on },
          {
            onError: (error) => toastFailed(error, translate('qa.voteFailed')),
          },
        ),
    }),
    [voted, mutate],
  );
  return <VotesContext value={votes}>{children}</VotesContext>;
}

/** The votes of the list around (`VotesProvider`). */
export function useVotes(): Votes {
  const votes = use(VotesContext);
  if (!votes) throw new Error('useVotes needs a VotesProvider around it');
  return votes;
}
