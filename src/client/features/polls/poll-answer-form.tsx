import {
  ActionIcon,
  Button,
  Checkbox,
  Group,
  Radio,
  Rating,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconSend } from '@tabler/icons-react';
import { type ReactNode, type SubmitEvent, useState } from 'react';
import { POLL_LIMITS, type Poll, type PollVoteRequest } from '../../../shared/schemas/poll.ts';
import { useT } from '../../i18n/language.ts';
import {
  type AnswerDraft,
  answerOf,
  draftOf,
  moveInRanking,
  wordsProblem,
} from './attendee-polls.ts';
import classes from './poll-card.module.css';

export interface PollAnswerFormProps {
  poll: Poll;
  /** The attendee's answer, when they change it: the form starts from it. */
  mine?: PollVoteRequest | undefined;
  pending: boolean;
  onSend: (answer: PollVoteRequest) => void;
  /** Changing an answer can be left: back to the answer as it was. */
  onCancel?: (() => void) | undefined;
}

/** single, multiple and quiz: a card per option to tap (one, or one or more). */
function ChoiceInput({
  poll,
  draft,
  onChange,
}: {
  poll: Poll;
  draft: AnswerDraft;
  onChange: (optionIds: string[]) => void;
}) {
  const t = useT();
  const option = (text: string, control: ReactNode) => (
    <Group wrap="nowrap" gap="sm" align="flex-start">
      {control}
      <Text dir="auto" className={classes.optionText}>
        {text}
      </Text>
    </Group>
  );
  if (poll.type === 'single') {
    return (
      <Radio.Group
        label={t('polls.chooseOne')}
        value={draft.optionIds[0] ?? null}
        onChange={(value) => onChange([value])}
      >
        <Stack gap="xs" mt={6}>
          {poll.options.map(({ id, text }) => (
            <Radio.Card key={id} value={id} radius="md" className={classes.optionCard}>
              {option(text, <Radio.Indicator />)}
            </Radio.Card>
          ))}
        </Stack>
      </Radio.Group>
    );
  }
  return (
    <Checkbox.Group
      label={poll.type === 'quiz' ? t('polls.chooseRightAnswers') : t('polls.chooseSeveral')}
      value={draft.optionIds}
      onChange={onChange}
    >
      <Stack gap="xs" mt={6}>
        {poll.options.map(({ id, text }) => (
          <Checkbox.Card key={id} value={id} radius="md" className={classes.optionCard}>
            {option(text, <Checkbox.Indicator />)}
          </Checkbox.Card>
        ))}
      </Stack>
    </Checkbox.Group>
  );
}

/** rating: 1 to the poll's highest, as stars, with the value chosen in words. */
function RatingInput({
  poll,
  draft,
  onChange,
}: {
  poll: Poll;
  draft: AnswerDraft;
  onChange: (rating: number) => void;
}) {
  const t = useT();
  const labelId = `rate-${poll._id}`;
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500} id={labelId}>
        {t('polls.yourRating', { max: poll.maxRating })}
      </Text>
      <Group gap="md" wrap="wrap">
        <div role="radiogroup" aria-labelledby={labelId}>
          <Rating
            count={poll.maxRating}
            value={draft.rating ?? 0}
            onChange={onChange}
            size={poll.maxRating > 6 ? 'lg' : 'xl'}
            getSymbolLabel={(value) => t('polls.ratingOf', { rating: value, max: poll.maxRating })}
          />
        </div>
        <Text size="sm" c="dimmed" aria-live="polite">
          {draft.rating === null
            ? t('polls.tapAStar')
            : t('polls.ratingOf', { rating: draft.rating, max: poll.maxRating })}
        </Text>
      </Group>
    </Stack>
  );
}

/** wordcloud: up to three words or short phrases, one per box. */
function WordsInput({
  draft,
  onChange,
}: {
  draft: AnswerDraft;
  onChange: (words: string[]) => void;
}) {
  const t = useT();
  const problem = wordsProblem(draft.words);
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500}>
        {t('polls.wordsHint', { count: POLL_LIMITS.wordcloudEntries })}
      </Text>
      {draft.words.map((word, index) => (
        <TextInput
          // The boxes are fixed: three, in order.
          key={index}
          label={
            index === 0
              ? t('polls.wordRequired', { number: 1 })
              : t('polls.wordOptional', { number: index + 1 })
          }
          value={word}
          maxLength={POLL_LIMITS.wordMax}
          dir="auto"
          autoComplete="off"
          onChange={(event) => {
            const next = [...draft.words];
            next[index] = event.currentTarget.value;
            onChange(next);
          }}
        />
      ))}
      {problem && (
        <Text size="sm" c="red" role="alert">
          {t(problem.id, problem.values)}
        </Text>
      )}
    </Stack>
  );
}

/** open: a text up to 500 characters, with what is left. */
function TextAnswerInput({
  draft,
  onChange,
}: {
  draft: AnswerDraft;
  onChange: (text: string) => void;
}) {
  const t = useT();
  return (
    <Textarea
      label={t('polls.yourAnswer')}
      value={draft.text}
      onChange={(event) => onChange(event.currentTarget.value)}
      maxLength={POLL_LIMITS.openTextMax}
      autosize
      minRows={3}
      maxRows={8}
      dir="auto"
      description={t('polls.characters', {
        count: draft.text.length,
        max: POLL_LIMITS.openTextMax,
      })}
      inputWrapperOrder={['label', 'input', 'description']}
    />
  );
}

/** ranking: the options in the attendee's order, each moved up or down with a button. */
function RankingInput({
  poll,
  draft,
  onChange,
}: {
  poll: Poll;
  draft: AnswerDraft;
  onChange: (ranking: string[]) => void;
}) {
  const t = useT();
  const [said, setSaid] = useState('');
  const textOf = new Map(poll.options.map((option) => [option.id, option.text]));
  const move = (index: number, by: -1 | 1) => {
    const next = moveInRanking(draft.ranking, index, by);
    const id = draft.ranking[index];
    onChange(next);
    if (id !== undefined) {
      setSaid(
        t('polls.movedTo', {
          text: textOf.get(id) ?? '',
          place: next.indexOf(id) + 1,
          count: next.length,
        }),
      );
    }
  };
  const labelId = `rank-${poll._id}`;
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500} id={labelId}>
        {t('polls.rankingHint')}
      </Text>
      <ol className={classes.ranking} aria-labelledby={labelId}>
        {draft.ranking.map((id, index) => {
          const text = textOf.get(id) ?? id;
          return (
            <li key={id} className={classes.rankItem}>
              <span className={classes.rankPlace} aria-hidden>
                {index + 1}
              </span>
              <Text dir="auto" className={classes.optionText}>
                {text}
              </Text>
              <Group gap={4} wrap="nowrap" className={classes.rankButtons}>
                <ActionIcon
                  variant="light"
                  size="lg"
                  aria-label={t('polls.moveUp', { text })}
                  disabled={index === 0}
                  onClick={() => move(index, -1)}
                >
                  <IconArrowUp size={18} />
                </ActionIcon>
                <ActionIcon
                  variant="light"
                  size="lg"
                  aria-label={t('polls.moveDown', { text })}
                  disabled={index === draft.ranking.length - 1}
                  onClick={() => move(index, 1)}
                >
                  <IconArrowDown size={18} />
                </ActionIcon>
              </Group>
            </li>
          );
        })}
      </ol>
      <Text size="sm" c="dimmed" aria-live="polite" className={classes.said}>
        {said}
      </Text>
    </Stack>
  );
}

/**
 * The answer form of an open poll, by its type: radio cards (single), check cards (multiple,
 * quiz), stars (rating), three boxes (word cloud), a text with a counter (open), an order with
 * up and down buttons (ranking). "Send" is enabled once the answer is complete.
 */
export function PollAnswerForm({ poll, mine, pending, onSend, onCancel }: PollAnswerFormProps) {
  const t = useT();
  const [draft, setDraft] = useState(() => draftOf(poll, mine));
  const change = (part: Partial<AnswerDraft>) => setDraft((current) => ({ ...current, ...part }));
  const answer = answerOf(poll, draft);
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (answer && !pending) onSend(answer);
  };
  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label={t('polls.answerFormLabel', { title: poll.title })}
    >
      <Stack gap="md">
        {poll.type === 'rating' ? (
          <RatingInput poll={poll} draft={draft} onChange={(rating) => change({ rating })} />
        ) : poll.type === 'wordcloud' ? (
          <WordsInput draft={draft} onChange={(words) => change({ words })} />
        ) : poll.type === 'open' ? (
          <TextAnswerInput draft={draft} onChange={(text) => change({ text })} />
        ) : poll.type === 'ranking' ? (
          <RankingInput poll={poll} draft={draft} onChange={(ranking) => change({ ranking })} />
        ) : (
          <ChoiceInput poll={poll} draft={draft} onChange={(optionIds) => change({ optionIds })} />
        )}
        <Group gap="sm">
          <Button
            type="submit"
            leftSection={<IconSend size={18} className="confab-flip-rtl" />}
            loading={pending}
            disabled={!answer}
          >
            {mine ? t('polls.sendNewAnswer') : t('polls.sendAnswer')}
          </Button>
          {onCancel && (
            <Button variant="subtle" onClick={onCancel} disabled={pending}>
              {t('polls.keepAnswer')}
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}
