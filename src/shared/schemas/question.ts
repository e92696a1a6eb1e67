import { z } from 'zod';
import { LIMITS } from '../constants.ts';
import { QA_TEXTS } from '../qa-constants.ts';
import { filledIn, idSchema, multiLineText, pageQuerySchema, usernameSchema } from './common.ts';

/** A question as the API answers it. */
export const questionSchema = z.object({
  _id: idSchema,
  speakerId: idSchema,
  speakerName: z.string(),
  askerUsername: z.string(),
  question: z.string(),
  createdAt: z.iso.datetime(),
});
export type Question = z.infer<typeof questionSchema>;

/** The question text as a person types it: trimmed, 1 to 1,000 characters. */
export const questionTextSchema = multiLineText('Question', LIMITS.questionMax);

/** POST /questions (spec: speakerId, speakerName, question, askerUsername). */
export const questionCreateRequestSchema = z.object({
  speakerId: z.uuid({
    error: (issue) => (issue.input === undefined ? 'Speaker is required' : 'Unknown speaker id'),
  }),
  /** Sent by the dialog as the spec says; the stored name is the speaker's own. */
  speakerName: z
    .string({ error: 'speakerName must be text' })
    .max(LIMITS.speakerNameMax * 2, { error: 'speakerName is too long' })
    .optional(),
  question: questionTextSchema,
  askerUsername: usernameSchema,
});
export type QuestionCreateRequest = z.infer<typeof questionCreateRequestSchema>;

/** The ask dialog: the question, and the speaker picked in its list ('' until one is). */
export const askQuestionFormSchema = z.object({
  question: questionTextSchema,
  speakerId: filledIn(QA_TEXTS.selectSpeaker, questionCreateRequestSchema.shape.speakerId),
});

export const questionListSchema = z.array(questionSchema);

/**
 * GET /api/questions/realtime: one speaker's questions (`speakerId`) or everybody's, or one
 * attendee's (`askerUsername`); `since` (a question id or an ISO time) keeps only newer ones,
 * `before` (an id) only older ones.
 * The answer is oldest first: the latest `limit` matches, or with `since` the first `limit`.
 */
export const questionsQuerySchema = z.object({
  speakerId: z.uuid({ error: 'speakerId must be a speaker id' }).optional(),
  since: z
    .union([z.uuid(), z.iso.datetime({ offset: true })], {
      error: 'since must be a question id or an ISO 8601 time',
    })
    .optional(),
  before: z.uuid({ error: 'before must be a question id' }).optional(),
  /** Only the questions this attendee asked (exact username). */
  askerUsername: usernameSchema.optional(),
  limit: pageQuerySchema.shape.limit,
});
export type QuestionsQuery = z.infer<typeof questionsQuerySchema>;
