import { Button, VisuallyHidden } from '@mantine/core';
import { IconCheck, IconEyeOff, IconStarFilled } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import type { Poll, PollVoteRequest } from '../../../shared/schemas/poll.ts';
import { useT } from '../../i18n/language.ts';
import {
  type ResultBar,
  choiceBars,
  cloudWords,
  correctOptionIdsOf,
  isOwnText,
  ownPlaces,
  rankingBars,
  ratingFigures,
} from './results-figures.ts';
import { useTweenedNumber } from './use-tweened-number.ts';
import classes from './poll-results.module.css';

/** Where the results are read: a phone in the hand, or a projector at the back of a room. */
export type PollResultsSize = 'phone' | 'projector';

export interface PollResultsProps {
  poll: Poll;
  size?: PollResultsSize;
  /** The reader's own answer, marked in the results (an attendee's, kept on their device). */
  mine?: PollVoteRequest | undefined;
  /** Whether to say how many answered, under the results. */
  withVoters?: boolean;
}

/** Open answers shown at first: a phone can show them all on request; a projector the newest. */
const OPEN_ANSWERS = { phone: 20, projector: 6 } as const;
/** The word cloud's sizes, in em of the results' text. */
const CLOUD_SIZES = { min: 0.9, max: 2.6 } as const;

/** A number that counts to its new value, as a whole number, written as the language writes it. */
function Count({ value }: { value: number }) {
  const t = useT();
  return <>{t('polls.count', { value: Math.round(useTweenedNumber(value)) })}</>;
}

/** A share that counts to its new value, in whole percent ("42%", "42 %", "٤٢٪"). */
function Percent({ value }: { value: number }) {
  const t = useT();
  return <>{t('polls.percent', { share: Math.round(useTweenedNumber(value)) / 100 })}</>;
}

function Tags({ bar, extra }: { bar: ResultBar; extra?: string | undefined }) {
  const t = useT();
  return (
    <>
      {bar.correct && (
        <span className={`${classes.tag} ${classes.correctTag}`}>
          <IconCheck size="1em" aria-hidden />
          {t('polls.correct')}
        </span>
      )}
      {bar.mine && <span className={`${classes.tag} ${classes.mineTag}`}>{t('polls.you')}</span>}
      {extra && <span className={`${classes.tag} ${classes.mineTag}`}>{extra}</span>}
    </>
  );
}

/** A bar with its label, its badges and its figure: answers and share, or points. */
function Bar({
  bar,
  label,
  points = false,
  extra,
}: {
  bar: ResultBar;
  label?: ReactNode;
  points?: boolean;
  extra?: string | undefined;
}) {
  const t = useT();
  return (
    <li
      className={classes.row}
      data-mine={bar.mine || undefined}
      data-correct={bar.correct || undefined}
    >
      <div className={classes.rowHead}>
        <span className={classes.label}>
          {label ?? <bdi dir="auto">{bar.label}</bdi>}
          <Tags bar={bar} extra={extra} />
        </span>
        <span className={classes.figure}>
          {points ? (
            <>
              <Count value={bar.value} />
              <VisuallyHidden>{` ${t('polls.pointsUnit', { count: bar.value })}`}</VisuallyHidden>
            </>
          ) : (
            <>
              <Percent value={bar.percent} />
              <small>
                <Count value={bar.value} />
                <VisuallyHidden>{` ${t('polls.answersUnit', { count: bar.value })}`}</VisuallyHidden>
              </small>
            </>
          )}
        </span>
      </div>
      <div className={classes.track} aria-hidden>
        <div className={classes.bar} style={{ width: `${bar.width}%` }} />
      </div>
    </li>
  );
}

function ChoiceResults({ poll, mine }: { poll: Poll; mine?: PollVoteRequest | undefined }) {
  return (
    <ul className={classes.bars}>
      {choiceBars(poll, mine).map((bar) => (
        <Bar key={bar.id} bar={bar} />
      ))}
    </ul>
  );
}

function RankingResults({ poll, mine }: { poll: Poll; mine?: PollVoteRequest | undefined }) {
  const t = useT();
  const places = ownPlaces(mine);
  return (
    <ol className={classes.bars}>
      {rankingBars(poll, mine).map((bar) => {
        const place = places.get(bar.id);
        return (
          <Bar
            key={bar.id}
            bar={{ ...bar, mine: false }}
            points
            extra={place === undefined ? undefined : t('polls.yourPlace', { place })}
          />
        );
      })}
    </ol>
  );
}

function RatingResults({ poll, mine }: { poll: Poll; mine?: PollVoteRequest | undefined }) {
  const t = useT();
  const { average, bars } = ratingFigures(poll, mine);
  const shown = useTweenedNumber(average ?? 0);
  return (
    <>
      <div className={classes.average}>
        <span className={classes.averageValue}>
          {average === null ? '–' : t('polls.averageValue', { value: Number(shown.toFixed(1)) })}
        </span>
        <span>
          {t('polls.outOf', { max: poll.maxRating })}
          <VisuallyHidden>{`: ${t('polls.averageRating')}`}</VisuallyHidden>
        </span>
      </div>
      <ul className={classes.bars}>
        {bars.toReversed().map((bar) => (
          <Bar
            key={bar.id}
            bar={bar}
            label={
              <span className={classes.ratingLabel}>
                {t('polls.count', { value: Number(bar.label) })}
                <IconStarFilled size="0.9em" aria-hidden />
                <VisuallyHidden>{` ${t('polls.starsUnit', { count: Number(bar.label) })}`}</VisuallyHidden>
              </span>
            }
          />
        ))}
      </ul>
    </>
  );
}

function WordcloudResults({ poll, mine }: { poll: Poll; mine?: PollVoteRequest | undefined }) {
  const t = useT();
  const words = poll.results && 'words' in poll.results ? poll.results.words : [];
  const cloud = cloudWords(words, CLOUD_SIZES, mine);
  if (cloud.length === 0) return <NoAnswers />;
  return (
    <ul className={classes.cloud} aria-label={t('polls.hintWordcloud')}>
      {cloud.map((word) => (
        <li
          key={word.text}
          className={classes.word}
          style={{ fontSize: `${word.size}em` }}
          data-mine={word.mine || undefined}
        >
          <bdi dir="auto">{word.text}</bdi>
          <VisuallyHidden>
            {`: ${t('polls.timesSaid', { count: word.count })}${word.mine ? `, ${t('polls.yourAnswer')}` : ''}`}
          </VisuallyHidden>
        </li>
      ))}
    </ul>
  );
}

function OpenResults({
  poll,
  mine,
  size,
}: {
  poll: Poll;
  mine?: PollVoteRequest | undefined;
  size: PollResultsSize;
}) {
  const t = useT();
  const [all, setAll] = useState(false);
  const answers = poll.results && 'answers' in poll.results ? poll.results.answers : [];
  if (answers.length === 0) return <NoAnswers />;
  const limit = OPEN_ANSWERS[size];
  const shown = all ? answers : answers.slice(0, limit);
  // The reader's own answer is marked once, however many said the same.
  const ownId = answers.find((answer) => isOwnText(answer.text, mine))?._id;
  return (
    <>
      <ul className={classes.answers}>
        {shown.map((answer) => (
          <li
            key={answer._id}
            className={classes.answer}
            dir="auto"
            data-mine={answer._id === ownId || undefined}
          >
            {answer.text}
            {answer._id === ownId && (
              <>
                {' '}
                <span className={`${classes.tag} ${classes.mineTag}`}>{t('polls.you')}</span>
              </>
            )}
          </li>
        ))}
      </ul>
      {size === 'phone' && answers.length > limit && (
        <Button variant="subtle" size="compact-sm" onClick={() => setAll((value) => !value)}>
          {all ? t('polls.showFewer') : t('polls.showAll', { count: answers.length })}
        </Button>
      )}
    </>
  );
}

function NoAnswers() {
  const t = useT();
  return <div className={classes.hidden}>{t('polls.noAnswersYet')}</div>;
}

/**
 * A poll's results, for every type: bars with answers and share (single, multiple, quiz, with a
 * quiz's right options marked once known), the average and the spread (rating), the words
 * sized by how often they were given (word cloud), the answers (open), the points (ranking).
 * The bars slide and the figures count to their new values (not under reduced motion). With
 * results hidden from the reader, it says so with how many answered. `size="projector"` is the
 * same, large, for the back of a room.
 */
export function PollResults({ poll, size = 'phone', mine, withVoters = true }: PollResultsProps) {
  const t = useT();
  const quizKnown = poll.type === 'quiz' && correctOptionIdsOf(poll).length > 0;
  const voters = (
    <div className={classes.voters} aria-live="off">
      {t('polls.answers', { count: poll.voters })}
    </div>
  );
  if (poll.results === null) {
    return (
      <div className={classes.results} data-size={size}>
        <div className={classes.hidden}>
          <IconEyeOff size="1.2em" aria-hidden />
          <div>
            <div>
              <strong>{t('polls.resultsHidden')}</strong>
            </div>
            <div className={classes.voters}>{t('polls.answers', { count: poll.voters })}</div>
          </div>
        </div>
      </div>
    );
  }
  return (
    <div
      className={classes.results}
      data-size={size}
      data-quiz-known={quizKnown || undefined}
      data-type={poll.type}
    >
      {poll.type === 'rating' ? (
        <RatingResults poll={poll} mine={mine} />
      ) : poll.type === 'wordcloud' ? (
        <WordcloudResults poll={poll} mine={mine} />
      ) : poll.type === 'open' ? (
        <OpenResults poll={poll} mine={mine} size={size} />
      ) : poll.type === 'ranking' ? (
        <RankingResults poll={poll} mine={mine} />
      ) : (
        <ChoiceResults poll={poll} mine={mine} />
      )}
      {withVoters && voters}
    </div>
  );
}
