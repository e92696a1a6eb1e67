import { Group, Text } from '@mantine/core';
import { TimeAgo } from '../../components/time-ago.tsx';
import { useT } from '../../i18n/language.ts';
import { VoteButton } from './vote-button.tsx';
import card from '../../components/question-card.module.css';
import classes from './qa-room.module.css';
import {
  askerHandle,
  QuestionFlags,
  WrittenAnswer,
  QuestionFrame,
  type QuestionViewProps,
} from '../../components/question-parts.tsx';

/**
 * One question in the Q&A room's chat panel: the asker's handle and the text, as typed, with
 * the thumb and its count; answered ones greyed, the pinned one marked.
 */
export function QuestionBubble({ question, mine, canVote }: QuestionViewProps) {
  const t = useT();
  return (
    <QuestionFrame
      question={question}
      className={classes.bubble}
      data-mine={mine || undefined}
      withBorder={false}
      p="sm"
    >
      <Group gap={6} justify="space-between" wrap="nowrap" mb={4}>
        <Text fw={700} size="sm" className={classes.handle} truncate>
          <bdi>{askerHandle(question)}</bdi>
          {mine && (
            <Text span c="dimmed" size="xs" fw={500}>
              {' '}
              {t('qa.youSuffix')}
            </Text>
          )}
        </Text>
        <TimeAgo iso={question.createdAt} size="xs" c="dimmed" style={{ flexShrink: 0 }} />
      </Group>
      <QuestionBody question={question} canVote={canVote} />
    </QuestionFrame>
  );
}

/** A question's text as typed, its marks and its thumb: the part every attendee card shares. */
export function QuestionBody({ question, canVote }: Omit<QuestionViewProps, 'mine'>) {
  return (
    <>
      <Text className={card.text} dir="auto">
        {question.question}
      </Text>
      <WrittenAnswer question={question} />
      <Group gap="xs" mt={8} justify="space-between">
        <Group gap={6}>
          <QuestionFlags question={question} />
        </Group>
        <VoteButton question={question} canVote={canVote} />
      </Group>
    </>
  );
}
