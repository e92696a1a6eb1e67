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
import type { Question } from '../../shared/schemas/question.ts';
import { translate, useT } from '../i18n/language.ts';
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
  const t = useT();
  return (
    <SegmentedControl
      size={size}
      value={value}
      onChange={(next) => onChange(orderOf(next))}
      data={[
        ...(withChat ? [{ value: 'chat', label: t('qa.orderChat') }] : []),
        { value: 'top', label: t('qa.orderTop') },
        { value: 'recent', label: t('qa.orderRecent') },
      ]}
      aria-label={t('qa.orderLabel')}
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
  const t = useT();
  return (
    <>
      {question.pinned && (
        <Badge size={size} variant="light" leftSection={<IconPinFilled size={12} />}>
          {t('qa.pinned')}
        </Badge>
      )}
      {question.answered && (
        <Badge size={size} variant="light" color="gray" leftSection={<IconCheck size={12} />}>
          {t('qa.answered')}
        </Badge>
      )}
    </>
  );
}

/**
 * Who asked, as every screen but the admin's shows it: "@name", or "Anonymous" (in the language
 * shown) for a question asked anonymously, even where the asker's own copy still carries their
 * name (decision 233). A name is the person's own text: the screen isolates it (`<bdi>`).
 */
export const askerHandle = (question: Pick<Question, 'askerUsername' | 'anonymous'>): string =>
  question.anonymous || question.askerUsername === null
    ? translate('qa.anonymous')
    : `@${question.askerUsername}`;

/**
 * The speaker's written answer under a question (decision 234), as text with its line breaks;
 * nothing when there is none.
 */
export function WrittenAnswer({
  question,
  className,
}: {
  question: Pick<Question, 'answer' | 'speakerName'>;
  className?: string;
}) {
  const t = useT();
  if (question.answer === null) return null;
  return (
    <div className={className ? `${className} ${card.answer}` : card.answer}>
      <div className={card.answerLabel}>{t('qa.writtenAnswer')}</div>
      {/* The speaker's own text, in its own direction; the label is in the screen's. */}
      <div className={card.answerText} dir="auto">
        {question.answer}
      </div>
    </div>
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
  question: Pick<Question, 'answered' | 'pinned' | 'askerUsername' | 'anonymous'>;
  children: ReactNode;
  [data: `data-${string}`]: string | boolean | undefined;
}) {
  const t = useT();
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
      aria-label={t('qa.questionFrom', { name: askerHandle(question).replace(/^@/, '') })}
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
