import {
  Badge,
  type BadgeProps,
  EmptyState,
  type EmptyStateProps,
  Paper,
  type PaperProps,
  SegmentedControl,
} from '@mantine/core';
import type { ReactNode } from 'react';
import { IconCheck, IconMessageCircleOff, IconPinFilled } from '@tabler/icons-react';
import { QA_TEXTS } from '../../shared/qa-constants.ts';
import type { Question } from '../../shared/schemas/question.ts';
import card from './question-card.module.css';

/**
 * The tabs of the Q&A screens: "Top" (most votes first) and "Recent" (newest first, on every
 * screen); the Q&A room has "Chat" too, the spec's chat: oldest at the top, newest at the
 * bottom (decision 199).
 */
export type QuestionOrder = 'top' | 'recent' | 'chat';

const orderOf = (value: string): QuestionOrder =>
  value === 'top' || value === 'chat' ? value : 'recent';

/** "Top" / "Recent" (and "Chat"): the one switch every Q&A screen orders its questions with. */
export function QuestionOrderControl({
  value,
  onChange,
  size,
  withChat = false,
}: {
  value: QuestionOrder;
  onChange: (order: QuestionOrder) => void;
  size?: 'xs' | 'sm';
  /** Offers the room's chat order first. */
  withChat?: boolean;
}) {
  return (
    <SegmentedControl
      size={size}
      value={value}
      onChange={(next) => onChange(orderOf(next))}
      data={[
        ...(withChat ? [{ value: 'chat', label: QA_TEXTS.chat }] : []),
        { value: 'top', label: QA_TEXTS.top },
        { value: 'recent', label: QA_TEXTS.recent },
      ]}
      aria-label="Order of the questions"
    />
  );
}

/** A question's "Pinned" and "Answered" marks, as every Q&A screen shows them. */
export function QuestionFlags({
  question,
  size = 'sm',
}: {
  question: Pick<Question, 'pinned' | 'answered'>;
  size?: BadgeProps['size'];
}) {
  return (
    <>
      {question.pinned && (
        <Badge size={size} variant="light" leftSection={<IconPinFilled size={12} />}>
          {QA_TEXTS.pinned}
        </Badge>
      )}
      {question.answered && (
        <Badge size={size} variant="light" color="gray" leftSection={<IconCheck size={12} />}>
          {QA_TEXTS.answered}
        </Badge>
      )}
    </>
  );
}

/** What a screen that lists questions for an attendee knows of each one. */
export interface QuestionViewProps {
  question: Question;
  mine: boolean;
  canVote: boolean;
}

/**
 * The card every Q&A screen draws a question in: an article named after its asker, greyed when
 * answered, framed when pinned. `className` adds a screen's own look.
 */
export function QuestionFrame({
  question,
  className,
  children,
  ...paper
}: PaperProps & {
  question: Pick<Question, 'answered' | 'pinned' | 'askerUsername'>;
  children: ReactNode;
  [data: `data-${string}`]: string | boolean | undefined;
}) {
  return (
    <Paper
      component="article"
      radius="lg"
      p="md"
      withBorder
      {...paper}
      className={className ? `${className} ${card.card}` : card.card}
      data-answered={question.answered || undefined}
      data-pinned={question.pinned || undefined}
      aria-label={`Question from ${question.askerUsername}`}
    >
      {children}
    </Paper>
  );
}

/** A Q&A list without questions: the empty speech bubble, what that means, what comes next. */
export function NoQuestions(props: Pick<EmptyStateProps, 'title' | 'description' | 'py'>) {
  return (
    <EmptyState icon={<IconMessageCircleOff size={28} />} withIndicatorBackground {...props} />
  );
}
