import { Badge, Group, Loader, Stack, Text, Title, type TitleOrder } from '@mantine/core';
import { IconTrophy } from '@tabler/icons-react';
import type { Poll } from '../../../shared/schemas/poll.ts';
import { usePollLeaderboard } from './api/get-poll-leaderboard.ts';
import { useT } from '../../i18n/language.ts';
import classes from './poll-card.module.css';

/** The best scores shown under a closed quiz. */
const SHOWN = 10;

/** A closed quiz's leaderboard: the ten best, and the reader marked where they are. */
export function PollLeaderboard({
  poll,
  username,
  titleOrder = 4,
}: {
  poll: Poll;
  username?: string | undefined;
  titleOrder?: TitleOrder;
}) {
  // Everybody may read it once the quiz is closed with its results shown (before, a 409).
  const t = useT();
  const readable = poll.type === 'quiz' && poll.state === 'closed' && poll.resultsVisible;
  const leaderboard = usePollLeaderboard(poll._id, poll.voters, undefined, readable);
  const headingId = `leaderboard-${poll._id}`;
  if (!readable) return null;
  if (leaderboard.isPending) return <Loader size="sm" aria-label={t('polls.loadingLeaderboard')} />;
  const entries = leaderboard.data?.entries ?? [];
  if (entries.length === 0) return null;
  return (
    <Stack gap={6} component="section" aria-labelledby={headingId}>
      <Group gap={6}>
        <IconTrophy size={18} aria-hidden />
        <Title order={titleOrder} fz="md" id={headingId}>
          {t('polls.leaderboard')}
        </Title>
      </Group>
      <ol className={classes.leaderboard}>
        {entries.slice(0, SHOWN).map((entry, index) => (
          <li
            key={`${entry.username}-${index}`}
            className={classes.leader}
            data-mine={entry.username === username || undefined}
          >
            <span className={classes.rankPlace} aria-hidden>
              {index + 1}
            </span>
            <Text component="bdi" dir="auto" className={classes.optionText} fw={600}>
              {entry.username}
            </Text>
            {entry.username === username && (
              <Badge size="sm" variant="light">
                {t('polls.you')}
              </Badge>
            )}
            <Text fw={700} className={classes.points}>
              {t('polls.count', { value: entry.points })}
              <Text span size="xs" c="dimmed">
                {' '}
                {t('polls.pointsShort', { count: entry.points })}
              </Text>
            </Text>
          </li>
        ))}
      </ol>
    </Stack>
  );
}
