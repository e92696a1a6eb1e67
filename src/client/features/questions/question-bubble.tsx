import { Group, Paper, Text } from '@mantine/core';
import type { Question } from '../../../shared/schemas/question.ts';
import { TimeAgo } from '../../components/time-ago.tsx';
import classes from './qa-room.module.css';

/** One question in the Q&A room's chat panel: the asker's handle and the text, as typed. */
export function QuestionBubble({ question, mine }: { question: Question; mine: boolean }) {
  return (
    <Paper
      component="article"
      className={classes.bubble}
      data-mine={mine || undefined}
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
    </Paper>
  );
}
