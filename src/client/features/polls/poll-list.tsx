import { Stack, Title, type TitleOrder } from '@mantine/core';
import { type ReactNode, useEffect } from 'react';
import { attendeeIdOf, getAttendeeToken } from '../../lib/attendee-token.ts';
import { useT } from '../../i18n/language.ts';
import { useStoredUsername } from '../../lib/username.ts';
import { type PollsScope, usePolls } from './api/get-polls.ts';
import { attendeePolls } from './attendee-polls.ts';
import { resetAnswers, useOwnAnswers } from './own-answers.ts';
import { PollCard } from './poll-card.tsx';

export interface PollListProps {
  /** A session's polls, or the event's (`sessionId: null`). */
  scope: PollsScope;
  /** The section's heading. */
  heading?: ReactNode;
  /** The heading's level, as the page around it needs. */
  headingOrder?: TitleOrder;
}

/**
 * The polls of a session or of the event, for the attendee: open ones first, live (a poll
 * opened by the speaker appears within a second, a closed one turns to its results), each with
 * the attendee's own answer as this device keeps it. An answer whose poll was reset is
 * forgotten. Nothing while there is no poll: a talk without polls shows no empty section.
 */
export function PollList({ scope, heading, headingOrder = 2 }: PollListProps) {
  const t = useT();
  const polls = usePolls(scope);
  const [username] = useStoredUsername();
  const own = useOwnAnswers();
  const shown = attendeePolls(polls.data ?? []);
  const reset = resetAnswers(own.all, own.attendee, shown).join(' ');
  const { forget } = own;
  useEffect(() => {
    if (reset) forget(reset.split(' '));
    // `forget` changes with every render; the reset polls are what matter.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [reset]);

  if (shown.length === 0) return null;
  const headingId = `polls-${scope.sessionId ?? 'event'}`;
  return (
    <Stack gap="sm" component="section" aria-labelledby={headingId}>
      <Title order={headingOrder} fz={headingOrder === 2 ? 'h3' : 'h4'} id={headingId}>
        {heading ?? t('polls.heading')}
      </Title>
      {shown.map((poll) => (
        <PollCard
          key={poll._id}
          poll={poll}
          mine={own.mineFor(poll)}
          canAnswer={Boolean(username)}
          username={username}
          titleOrder={Math.min(headingOrder + 1, 6) as TitleOrder}
          onAnswered={(answer) => {
            const attendee = attendeeIdOf(getAttendeeToken()) ?? own.attendee;
            if (attendee) own.remember(attendee, poll._id, answer);
          }}
        />
      ))}
    </Stack>
  );
}
