import {
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  Stack,
  Text,
  Title,
  type TitleOrder,
} from '@mantine/core';
import { IconCircleCheck, IconCircleX, IconPencil } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { CLIENT_PATHS } from '../../../shared/routes.ts';
import type { Poll, PollVoteRequest } from '../../../shared/schemas/poll.ts';
import { toastFailed } from '../../components/toast.ts';
import { translate, useMessages, useT } from '../../i18n/language.ts';
import type { MessageId } from '../../../shared/i18n/messages.ts';
import { useVotePoll } from './api/vote-poll.ts';
import { ownAnswerText, quizVerdict } from './attendee-polls.ts';
import { PollAnswerForm } from './poll-answer-form.tsx';
import { PollLeaderboard } from './poll-leaderboard.tsx';
import { PollResults } from './poll-results.tsx';
import classes from './poll-card.module.css';

export interface PollCardProps {
  poll: Poll;
  /** The attendee's own answer, as this device keeps it. */
  mine?: PollVoteRequest | undefined;
  /** Whether the reader may answer (joined with a username). */
  canAnswer: boolean;
  /** The server took `answer`: keep it as the attendee's. */
  onAnswered: (answer: PollVoteRequest) => void;
  /** The reader's username, marked on a quiz's leaderboard. */
  username?: string | undefined;
  /** The level of the poll's heading, as the page around it needs. */
  titleOrder?: TitleOrder;
}

/** What a type asks of the attendee, under the question. */
const HINTS = {
  single: 'polls.hintSingle',
  multiple: 'polls.hintMultiple',
  rating: 'polls.hintRating',
  wordcloud: 'polls.hintWordcloud',
  open: 'polls.hintOpen',
  ranking: 'polls.hintRanking',
  quiz: 'polls.hintQuiz',
} as const satisfies Record<Poll['type'], MessageId>;

/** A closed quiz says whether the attendee's answer was right. */
function QuizVerdict({ poll, mine }: { poll: Poll; mine?: PollVoteRequest | undefined }) {
  const t = useT();
  const verdict = quizVerdict(poll, mine);
  if (!verdict) return null;
  const right = verdict === 'right';
  return (
    <Group
      gap="xs"
      wrap="nowrap"
      className={classes.verdict}
      data-right={right || undefined}
      role="status"
    >
      {right ? <IconCircleCheck size={22} aria-hidden /> : <IconCircleX size={22} aria-hidden />}
      <Text fw={700}>{right ? t('polls.quizRight') : t('polls.quizWrong')}</Text>
    </Group>
  );
}

/**
 * One poll on the attendee's phone. Open: the answer form, or, once answered, the answer sent
 * with the results (when shown) and "Change answer". Closed: the results, the attendee's own
 * answer marked; a quiz says whether it was right and shows its leaderboard.
 */
export function PollCard({
  poll,
  mine,
  canAnswer,
  onAnswered,
  username,
  titleOrder = 3,
}: PollCardProps) {
  const { t, rich } = useMessages();
  const titleId = `poll-${poll._id}`;
  const vote = useVotePoll();
  const [editing, setEditing] = useState(false);
  const open = poll.state === 'open';
  const answering = open && canAnswer && (!mine || editing);

  const send = (answer: PollVoteRequest) => {
    vote.mutate(
      { poll, answer },
      {
        onSuccess: () => {
          onAnswered(answer);
          setEditing(false);
        },
        onError: (error) => toastFailed(error, translate('polls.answerFailed')),
      },
    );
  };

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
        <Stack gap={2}>
          <Group justify="space-between" align="flex-start" gap="xs" wrap="nowrap">
            <Title order={titleOrder} fz="lg" id={titleId} dir="auto" className={classes.title}>
              {poll.title}
            </Title>
            <Badge
              variant={open ? 'filled' : 'light'}
              // White on teal 9 is 5.0:1; on the filled green (green 8) it was 3.4:1.
              color={open ? 'teal.9' : 'gray'}
              className={classes.state}
            >
              {open ? t('polls.stateOpen') : t('polls.stateClosed')}
            </Badge>
          </Group>
          <Text size="sm" c="dimmed">
            {t(HINTS[poll.type])} · {t('polls.answers', { count: poll.voters })}
          </Text>
        </Stack>

        {answering ? (
          <PollAnswerForm
            key={editing ? 'change' : 'new'}
            poll={poll}
            mine={mine}
            pending={vote.isPending}
            onSend={send}
            onCancel={mine ? () => setEditing(false) : undefined}
          />
        ) : (
          <>
            {mine && (
              <Group gap="xs" justify="space-between" wrap="wrap">
                <Stack gap={0} miw={0} className={classes.sentBlock}>
                  <Group gap={6} wrap="nowrap" className={classes.sent}>
                    <IconCircleCheck size={20} aria-hidden />
                    <Text fw={700}>{open ? t('polls.answerSent') : t('polls.youAnswered')}</Text>
                  </Group>
                  <Text size="sm" className={classes.ownAnswer}>
                    <Text span c="dimmed" size="sm">
                      {t('polls.yourAnswerLabel')}{' '}
                    </Text>
                    <bdi>{ownAnswerText(poll, mine, t)}</bdi>
                  </Text>
                </Stack>
                {open && canAnswer && (
                  <Button
                    variant="light"
                    size="compact-md"
                    leftSection={<IconPencil size={16} />}
                    onClick={() => setEditing(true)}
                  >
                    {t('polls.changeAnswer')}
                  </Button>
                )}
              </Group>
            )}
            {poll.type === 'quiz' && !open && <QuizVerdict poll={poll} mine={mine} />}
            {(!open || mine || !canAnswer) && (
              <PollResults poll={poll} mine={mine} withVoters={false} />
            )}
            {open && !canAnswer && (
              <Text size="sm">
                {rich('polls.joinToAnswer', {
                  link: (chunks) => (
                    <Anchor component={Link} to={CLIENT_PATHS.join}>
                      {chunks}
                    </Anchor>
                  ),
                })}
              </Text>
            )}
            {poll.type === 'quiz' && !open && poll.resultsVisible && (
              <PollLeaderboard
                poll={poll}
                username={username}
                titleOrder={Math.min(titleOrder + 1, 6) as TitleOrder}
              />
            )}
          </>
        )}
      </Stack>
    </Paper>
  );
}
