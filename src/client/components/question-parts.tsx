import {
  Badge,
  type BadgeProps,
  EmptyState,
  type EmptyStateProps,
  Paper,
  type PaperProps,
  SegmentedControl,
  useMantineTheme,
} from '@mantine/core';
import { type CSSProperties, type ReactNode, useId } from 'react';
import { IconCheck, IconMessageCircleOff, IconPinFilled } from '@tabler/icons-react';
import type { Question } from '../../shared/schemas/question.ts';
import { AfterFirstRender } from './after-first-render.tsx';
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
  const data = [
    ...(withChat ? [{ value: 'chat', label: t('qa.orderChat') }] : []),
    { value: 'top', label: t('qa.orderTop') },
    { value: 'recent', label: t('qa.orderRecent') },
  ];
  const label = t('qa.orderLabel');
  const choose = (next: string) => onChange(orderOf(next));
  return (
    // The segmented control measures itself as it attaches: it comes with the screen's second
    // render, and the first draws it as it looks before it has measured (decision 254).
    <AfterFirstRender
      first={
        <SegmentsAsDrawn data={data} value={value} size={size} label={label} onChange={choose} />
      }
    >
      <SegmentedControl
        size={size}
        value={value}
        onChange={choose}
        data={data}
        aria-label={label}
      />
    </AfterFirstRender>
  );
}

const segments = SegmentedControl.classes;

/**
 * Mantine's segmented control (default variant, no colour) as it draws itself before it has
 * measured where its moving indicator goes, and as the server draws it: the same elements,
 * classes and attributes (a unit test compares them), with none of its state. It works the
 * same: a choice made on it is the screen's.
 */
export function SegmentsAsDrawn({
  data,
  value,
  size,
  label,
  onChange,
}: {
  data: { value: string; label: string }[];
  value: string;
  size: 'xs' | 'sm' | undefined;
  label: string;
  onChange: (value: string) => void;
}) {
  const name = `mantine-${useId()}`;
  const { focusRing } = useMantineTheme();
  const vars = {
    '--sc-shadow': 'var(--mantine-shadow-xs)',
    ...(size && {
      '--sc-padding': `var(--sc-padding-${size})`,
      '--sc-font-size': `var(--mantine-font-size-${size})`,
    }),
  } as CSSProperties;
  return (
    <div
      style={vars}
      className={`${segments.root} mantine-SegmentedControl-root`}
      data-size={size}
      data-with-items-borders="true"
      aria-label={label}
      role="radiogroup"
    >
      {data.map((item) => {
        const active = item.value === value;
        const id = `${name}-${item.value}`;
        return (
          <div
            key={item.value}
            className={`${segments.control} mantine-SegmentedControl-control`}
            data-active={active || undefined}
          >
            <input
              className={`${segments.input} mantine-SegmentedControl-input`}
              type="radio"
              id={id}
              data-focus-ring={focusRing}
              name={name}
              checked={active}
              value={item.value}
              onChange={() => onChange(item.value)}
            />
            <label
              className={`${segments.label} mantine-SegmentedControl-label`}
              data-active={active || undefined}
              htmlFor={id}
            >
              <span className={`${segments.innerLabel} mantine-SegmentedControl-innerLabel`}>
                {item.label}
              </span>
            </label>
          </div>
        );
      })}
    </div>
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
