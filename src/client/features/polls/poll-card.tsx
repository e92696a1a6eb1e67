import { Badge, Group, Paper, Stack, Title } from '@mantine/core';
import type { Poll } from '../../../shared/schemas/poll.ts';
import { PollResults } from './poll-results.tsx';
import classes from './poll-card.module.css';

/** One poll on the attendee's phone: its question, whether it is open, and its results. */
export function PollCard({ poll }: { poll: Poll }) {
  const titleId = `poll-${poll._id}`;
  return (
    <Paper
      component="article"
      withBorder
      radius="lg"
      p="md"
      aria-labelledby={titleId}
      className={classes.card}
      data-state={poll.state}
    >
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="xs" wrap="nowrap">
          <Title order={3} fz="lg" id={titleId} dir="auto" className={classes.title}>
            {poll.title}
          </Title>
          <Badge
            variant={poll.state === 'open' ? 'filled' : 'light'}
            color={poll.state === 'open' ? 'green' : 'gray'}
            className={classes.state}
          >
            {poll.state === 'open' ? 'Open' : 'Closed'}
          </Badge>
        </Group>
        <PollResults poll={poll} />
      </Stack>
    </Paper>
  );
}
