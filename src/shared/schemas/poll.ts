import { z } from 'zod';
import { idSchema, multiLineText, singleLineText } from './common.ts';

/** The kinds of poll (decision 220). */
export const POLL_TYPES = [
  'single',
  'multiple',
  'rating',
  'wordcloud',
  'open',
  'ranking',
  'quiz',
] as const;
export type PollType = (typeof POLL_TYPES)[number];

/** The kinds whose answers pick among the poll's options. */
export const POLL_TYPES_WITH_OPTIONS: readonly PollType[] = [
  'single',
  'multiple',
  'ranking',
  'quiz',
];

export const POLL_STATES = ['draft', 'open', 'closed'] as const;
export type PollState = (typeof POLL_STATES)[number];

/** The bounds of a poll and of one answer (decisions 220 to 222). */
export const POLL_LIMITS = {
  titleMax: 300,
  optionTextMax: 200,
  optionIdMax: 36,
  minOptions: 2,
  maxOptions: 20,
  minRating: 2,
  maxRating: 10,
  defaultMaxRating: 5,
  /** An open answer. */
  openTextMax: 500,
  /** A word-cloud answer: up to 3 entries, split at commas, semicolons and new lines. */
  wordcloudEntries: 3,
  wordcloudTextMax: 150,
  /** One entry of a word cloud, once normalised. */
  wordMax: 40,
  /** Words a word cloud's results list, most frequent first. */
  wordcloudResults: 100,
  /** Open answers the results list, newest first. */
  openResults: 200,
  /** Entries of a quiz's leaderboard. */
  leaderboard: 100,
} as const;

const optionIdSchema = z
  .string({ error: 'An option id must be text' })
  .regex(/^[A-Za-z0-9_-]+$/, { error: 'An option id is letters, digits, - and _' })
  .max(POLL_LIMITS.optionIdMax, { error: 'An option id is too long' });

export const pollOptionSchema = z.object({
  id: z.string(),
  text: z.string(),
});
export type PollOption = z.infer<typeof pollOptionSchema>;

/** single, multiple and quiz: the answers per option. */
export const choiceResultsSchema = z.object({
  options: z.array(z.object({ id: z.string(), count: z.number().int().min(0) })),
  /** Quiz only, and only once it is closed (or to its owner). */
  correctOptionIds: z.array(z.string()).optional(),
});
/** rating: the average (null with no answer) and the answers per value, 1 first. */
export const ratingResultsSchema = z.object({
  average: z.number().nullable(),
  counts: z.array(z.number().int().min(0)),
});
/** wordcloud: the normalised words, most frequent first. */
export const wordcloudResultsSchema = z.object({
  words: z.array(z.object({ text: z.string(), count: z.number().int().min(0) })),
});
/** open: the answers, newest first; `hidden` only in the owner's view. */
export const openResultsSchema = z.object({
  answers: z.array(z.object({ _id: idSchema, text: z.string(), hidden: z.boolean().optional() })),
});
/** ranking: Borda points per option (decision 221). */
export const rankingResultsSchema = z.object({
  options: z.array(z.object({ id: z.string(), points: z.number().int().min(0) })),
});
export const pollResultsSchema = z.union([
  choiceResultsSchema,
  ratingResultsSchema,
  wordcloudResultsSchema,
  openResultsSchema,
  rankingResultsSchema,
]);
export type PollResults = z.infer<typeof pollResultsSchema>;

/** A poll as the API answers it. */
export const pollSchema = z.object({
  _id: idSchema,
  /** null: a poll of the whole event. */
  sessionId: idSchema.nullable(),
  title: z.string(),
  type: z.enum(POLL_TYPES),
  /** The choices of single, multiple, ranking and quiz; empty for the others. */
  options: z.array(pollOptionSchema),
  /** rating's highest value (answers are 1..maxRating). */
  maxRating: z.number().int(),
  state: z.enum(POLL_STATES),
  resultsVisible: z.boolean(),
  /** Attendees who answered (one response each). */
  voters: z.number().int().min(0),
  /** null while hidden from the caller (not visible, and not its owner). */
  results: pollResultsSchema.nullable(),
  createdAt: z.iso.datetime(),
  /** A quiz's right options: in its owner's view only (in `results` for everyone once closed). */
  correctOptionIds: z.array(z.string()).optional(),
});
export type Poll = z.infer<typeof pollSchema>;
export const pollListSchema = z.array(pollSchema);
export const pollResponseSchema = z.object({ poll: pollSchema });

export const pollTitleSchema = singleLineText('Title', POLL_LIMITS.titleMax);

const pollOptionInputSchema = z.object({
  /** Given by the client (to name a quiz's right options), else made: `1`, `2`, … */
  id: optionIdSchema.optional(),
  text: singleLineText('Option', POLL_LIMITS.optionTextMax),
});

const pollOptionsInputSchema = z
  .array(pollOptionInputSchema, { error: 'Options must be a list' })
  .max(POLL_LIMITS.maxOptions, { error: `A poll has at most ${POLL_LIMITS.maxOptions} options` });

const maxRatingSchema = z
  .number({ error: 'maxRating must be a number' })
  .int({ error: 'maxRating must be a whole number' })
  .min(POLL_LIMITS.minRating, { error: `maxRating is at least ${POLL_LIMITS.minRating}` })
  .max(POLL_LIMITS.maxRating, { error: `maxRating is at most ${POLL_LIMITS.maxRating}` });

const correctOptionIdsSchema = z
  .array(optionIdSchema)
  .min(1, { error: 'A quiz needs at least one right option' })
  .max(POLL_LIMITS.maxOptions);

/** POST /api/polls: a draft, for a session (its speakers' and the admin's) or the whole event. */
export const pollCreateRequestSchema = z.strictObject({
  sessionId: idSchema.nullable().optional(),
  title: pollTitleSchema,
  type: z.enum(POLL_TYPES, { error: `type is one of ${POLL_TYPES.join(', ')}` }),
  options: pollOptionsInputSchema.optional(),
  maxRating: maxRatingSchema.optional(),
  resultsVisible: z.boolean().optional(),
  correctOptionIds: correctOptionIdsSchema.optional(),
});
export type PollCreateRequest = z.infer<typeof pollCreateRequestSchema>;

/**
 * PATCH /api/polls/:id: the state and the results' visibility at any time; title, options,
 * maxRating and a quiz's right options while a draft.
 */
export const pollPatchSchema = z
  .strictObject({
    state: z.enum(POLL_STATES).optional(),
    resultsVisible: z.boolean().optional(),
    title: pollTitleSchema.optional(),
    options: pollOptionsInputSchema.optional(),
    maxRating: maxRatingSchema.optional(),
    correctOptionIds: correctOptionIdsSchema.optional(),
  })
  .refine((patch) => Object.keys(patch).length > 0, {
    error: 'Nothing to change',
  });
export type PollPatch = z.infer<typeof pollPatchSchema>;

/**
 * PUT /api/polls/:id/vote, by type: `optionIds` (single: one; multiple and quiz: one or more),
 * `rating` (1..maxRating), `text` (wordcloud: up to 3 entries; open: up to 500 characters),
 * `ranking` (every option id once, first preferred).
 */
export const pollVoteRequestSchema = z.union(
  [
    z.strictObject({
      optionIds: z
        .array(z.string().max(POLL_LIMITS.optionIdMax))
        .min(1)
        .max(POLL_LIMITS.maxOptions),
    }),
    z.strictObject({ rating: z.number().int() }),
    z.strictObject({ text: multiLineText('Answer', POLL_LIMITS.openTextMax) }),
    z.strictObject({
      ranking: z.array(z.string().max(POLL_LIMITS.optionIdMax)).min(1).max(POLL_LIMITS.maxOptions),
    }),
  ],
  { error: 'Send optionIds, rating, text or ranking, as the poll’s type asks' },
);
export type PollVoteRequest = z.infer<typeof pollVoteRequestSchema>;

/** GET /api/polls: one session's polls (`sessionId`) or the event-wide ones (`event`). */
export const pollsQuerySchema = z
  .object({
    sessionId: idSchema.optional(),
    event: z.enum(['', '1', 'true']).optional(),
  })
  .refine((query) => (query.sessionId === undefined) !== (query.event === undefined), {
    error: 'Ask for one session’s polls (sessionId) or the event-wide ones (event)',
  });
export type PollsQuery = z.infer<typeof pollsQuerySchema>;

export const pollParamsSchema = z.object({ id: idSchema });
export const pollAnswerParamsSchema = z.object({ id: idSchema, answerId: idSchema });
export const pollWordParamsSchema = z.object({
  id: idSchema,
  text: z
    .string()
    .min(1)
    .max(POLL_LIMITS.wordMax * 4),
});

/** PATCH /api/polls/:id/answers/:answerId: an open answer hidden or shown again. */
export const pollAnswerPatchSchema = z.strictObject({ hidden: z.boolean() });

export const leaderboardSchema = z.object({
  entries: z.array(z.object({ username: z.string(), points: z.number().int().min(0) })),
});
export type Leaderboard = z.infer<typeof leaderboardSchema>;

/** Participation, for the admin's overview: voters per poll, distinct voters per session. */
export const pollStatsSchema = z.object({
  perPoll: z.array(
    z.object({
      pollId: idSchema,
      sessionId: idSchema.nullable(),
      title: z.string(),
      type: z.enum(POLL_TYPES),
      voters: z.number().int().min(0),
    }),
  ),
  /** Per session with polls (null: the event-wide ones): its polls and distinct voters. */
  perSession: z.array(
    z.object({
      sessionId: idSchema.nullable(),
      polls: z.number().int().min(0),
      voters: z.number().int().min(0),
    }),
  ),
});
export type PollStats = z.infer<typeof pollStatsSchema>;
