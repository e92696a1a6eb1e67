import { Badge, Group, Paper, Text } from '@mantine/core';
import { IconCheck, IconPinFilled } from '@tabler/icons-react';
import { QA_TEXTS } from '../../../shared/qa-constants.ts';
import type { Question } from '../../../shared/schemas/question.ts';
import { TimeAgo } from '../../components/time-ago.tsx';
import { VoteButton } from './vote-button.tsx';
import classes from './qa-room.module.css';

/**
 * One question in the Q&A room's chat panel: the asker's handle and the text, as typed, with
 * the thumb and its count; answered ones greyed, the pinned one marked.
 */
export function QuestionBubble({
  question,
  mine,
  canVote,
}: {
  question: Question;
  mine: boolean;
  canVote: boolean;
}) {
  return (
    <Paper
      component="article"
      className={classes.bubble}
      data-mine={mine || undefined}
      data-answered={question.answered || undefined}
      data-pinned={question.pinned || undefined}
      radius="lg"
      p="sm"
      aria-label={`Question from ${question.askerUsername}`}
    >
      <Group gap={6} justify="space-between" wrap="nowrap" mb={4}>
        <Text fw={700} size="sm" className={classes.handle} truncate>
          @{question.askerUsername}
          {mine && (
            <Text span c="dimmed" size="xs" fw={500}>
              {' '}
              (you)
            </Text>
          )}
        </Text>
        <TimeAgo iso={question.createdAt} size="xs" c="dimmed" style={{ flexShrink: 0 }} />
      </Group>
      <Text className={classes.text}>{question.question}</Text>
      <Group gap="xs" mt={8} justify="space-between">
        <Group gap={6}>
          {question.pinned && (
            <Badge size="sm" variant="light" leftSection={<IconPinFilled size={12} />}>
              {QA_TEXTS.pinned}
            </Badge>
          )}
          {question.answered && (
            <Badge size="sm" variant="light" color="gray" leftSection={<IconCheck size={12} />}>
              {QA_TEXTS.answered}
            </Badge>
          )}
        </Group>
        <VoteButton question={question} canVote={canVote} />
      </Group>
    </Paper>
  );
}
