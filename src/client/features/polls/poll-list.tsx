import { Stack, Title } from '@mantine/core';
import { type PollsScope, usePolls } from './api/get-polls.ts';
import { attendeePolls } from './attendee-polls.ts';
import { PollCard } from './poll-card.tsx';

export interface PollListProps {
  /** A session's polls, or the event's (`sessionId: null`). */
  scope: PollsScope;
  /** The section's heading. */
  heading?: string;
}

/**
 * The polls of a session or of the event, for the attendee: open ones first, live (a poll
 * opened by the speaker appears within a second, a closed one turns to its results). Nothing
 * while there is none: a talk without polls shows no empty section.
 */
export function PollList({ scope, heading = 'Polls' }: PollListProps) {
  const polls = usePolls(scope);
  const shown = attendeePolls(polls.data ?? []);
  if (shown.length === 0) return null;
  const headingId = `polls-${scope.sessionId ?? 'event'}`;
  return (
    <Stack gap="sm" component="section" aria-labelledby={headingId}>
      <Title order={2} fz="h3" id={headingId}>
        {heading}
      </Title>
      {shown.map((poll) => (
        <PollCard key={poll._id} poll={poll} />
      ))}
    </Stack>
  );
}
