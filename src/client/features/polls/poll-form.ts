import type { MessageId } from '../../../shared/i18n/messages.ts';
import type { Translate } from '../../i18n/language.ts';
import { validationText } from '../../lib/validation-text.ts';
import {
  POLL_LIMITS,
  POLL_TYPES_WITH_OPTIONS,
  type Poll,
  type PollCreateRequest,
  type PollPatch,
  type PollType,
  pollCreateRequestSchema,
} from '../../../shared/schemas/poll.ts';

/** What each kind of poll is called on the owners' screens, in the order they are offered. */
export const POLL_TYPE_LABELS = {
  single: 'polls.typeSingle',
  multiple: 'polls.typeMultiple',
  rating: 'polls.hintRating',
  wordcloud: 'polls.hintWordcloud',
  open: 'polls.typeOpen',
  ranking: 'polls.hintRanking',
  quiz: 'polls.hintQuiz',
} as const satisfies Record<PollType, MessageId>;

/** One option as the editor holds it: its id (kept while it is edited) and its text. */
export interface OptionValue {
  id: string;
  text: string;
}

/** The poll editor's fields. */
export interface PollValues {
  title: string;
  type: PollType;
  options: OptionValue[];
  maxRating: number;
  /** A quiz's right options, by id. */
  correct: string[];
  /** Results shown to everyone from the start (else the owner reveals them). */
  resultsVisible: boolean;
}

/** Whether a kind of poll has options to choose among. */
export const hasOptions = (type: PollType): boolean => POLL_TYPES_WITH_OPTIONS.includes(type);

/** A fresh option id: letters and digits, unique among the options of one poll. */
export function newOptionId(taken: readonly OptionValue[]): string {
  for (;;) {
    const id = Math.random().toString(36).slice(2, 8);
    if (id && !taken.some((option) => option.id === id)) return id;
  }
}

/** The editor's fields for a new poll (two empty options), or for a draft being edited. */
export function pollValuesOf(poll?: Poll): PollValues {
  if (!poll) {
    const first = { id: newOptionId([]), text: '' };
    return {
      title: '',
      type: 'single',
      options: [first, { id: newOptionId([first]), text: '' }],
      maxRating: POLL_LIMITS.defaultMaxRating,
      correct: [],
      resultsVisible: false,
    };
  }
  return {
    title: poll.title,
    type: poll.type,
    options: poll.options.map(({ id, text }) => ({ id, text })),
    maxRating: poll.maxRating,
    correct: poll.correctOptionIds ?? [],
    resultsVisible: poll.resultsVisible,
  };
}

/** The request the fields make: options, scale and right options only where the type has them. */
export function pollRequestOf(values: PollValues, sessionId: string | null): PollCreateRequest {
  const withOptions = hasOptions(values.type);
  const options = values.options.map(({ id, text }) => ({ id, text: text.trim() }));
  return {
    sessionId,
    title: values.title.trim(),
    type: values.type,
    resultsVisible: values.resultsVisible,
    ...(withOptions ? { options } : {}),
    ...(values.type === 'rating' ? { maxRating: values.maxRating } : {}),
    ...(values.type === 'quiz'
      ? { correctOptionIds: values.correct.filter((id) => options.some((o) => o.id === id)) }
      : {}),
  };
}

/** A draft's edit: what may change while it is a draft (not its type, session or visibility). */
export function pollPatchOf(values: PollValues): PollPatch {
  const { title, options, maxRating, correctOptionIds } = pollRequestOf(values, null);
  return {
    title,
    ...(options ? { options } : {}),
    ...(maxRating === undefined ? {} : { maxRating }),
    ...(correctOptionIds ? { correctOptionIds } : {}),
  };
}

/**
 * The editor's errors by field (`title`, `options.2.text`, `options`, `maxRating`, `correct`),
 * from the shared schema, plus the bounds the schema leaves to the server (at least two
 * options, each once), all in the reader's language. Empty when the poll may be sent.
 */
export function pollErrors(values: PollValues, t: Translate): Record<string, string> {
  const errors: Record<string, string> = {};
  const request = pollRequestOf(values, null);
  const parsed = pollCreateRequestSchema.safeParse(request);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const [field, index, part] = issue.path;
      const key =
        field === 'options' && typeof index === 'number' && part === 'text'
          ? `options.${index}.text`
          : field === 'correctOptionIds'
            ? 'correct'
            : String(field ?? 'title');
      errors[key] ??= validationText(issue.message);
    }
  }
  if (request.options) {
    if (request.options.length < POLL_LIMITS.minOptions && !('options' in errors))
      errors.options = t('polls.tooFewOptions', { min: POLL_LIMITS.minOptions });
    const seen = new Set<string>();
    request.options.forEach(({ text }, index) => {
      const key = text.toLocaleLowerCase();
      if (text && seen.has(key)) errors[`options.${index}.text`] ??= t('polls.optionTwice');
      seen.add(key);
    });
  }
  if (values.type === 'quiz' && (request.correctOptionIds?.length ?? 0) === 0)
    errors.correct = t('polls.markRightAnswer');
  return errors;
}

/** The options with the one at `from` moved to `to` (a move past either end does nothing). */
export function moveOption<T>(options: readonly T[], from: number, to: number): T[] {
  if (to < 0 || to >= options.length || from === to) return [...options];
  const next = [...options];
  const [moved] = next.splice(from, 1);
  if (moved !== undefined) next.splice(to, 0, moved);
  return next;
}
