import { z } from 'zod';
import { LIMITS } from '../constants.ts';
import { QA_TEXTS } from '../qa-constants.ts';
import { filledIn, idSchema, multiLineText, pageQuerySchema, usernameSchema } from './common.ts';

/**
 * A question as the API answers it. One asked of a session's panel as a whole has no speaker
 * (`speakerId` null) and carries the session's title as its `speakerName` (decision 223).
 */
export const questionSchema = z.object({
  _id: idSchema,
  speakerId: idSchema.nullable(),
  speakerName: z.string(),
  /** Null for an anonymous question wherever the caller is not the admin (decision 233). */
  askerUsername: z.string().nullable(),
  question: z.string(),
  createdAt: z.iso.datetime(),
  /** Upvotes: one per attendee. */
  votes: z.number().int().min(0),
  answered: z.boolean(),
  /** At most one pinned question per speaker. */
  pinned: z.boolean(),
  /** Public lists and events carry only published questions. */
  status: z.enum(['published', 'pending', 'hidden']),
  /** The programme's session it was asked in (a talk, a panel), or null. */
  sessionId: idSchema.nullable(),
  /** Asked anonymously: set when asked, never cleared (decision 233). */
  anonymous: z.boolean(),
  /** The speaker's written answer, or null (decision 234). */
  answer: z.string().nullable(),
  /** When the answer was last written (ISO time), or null. */
  answeredAt: z.iso.datetime().nullable(),
});
export type Question = z.infer<typeof questionSchema>;

/**
 * A question as anyone but the admin sees it: an anonymous one without its asker's name
 * (decision 233). Every public list, event, dashboard and speaker's export goes through it.
 */
export const publicQuestion = <Q extends Pick<Question, 'anonymous' | 'askerUsername'>>(
  question: Q,
): Q =>
  question.anonymous && question.askerUsername !== null
    ? { ...question, askerUsername: null }
    : question;
export const QUESTION_STATUSES = ['published', 'pending', 'hidden'] as const;
export type QuestionStatus = (typeof QUESTION_STATUSES)[number];

/** The question text as a person types it: trimmed, 1 to 1,000 characters. */
export const questionTextSchema = multiLineText('Question', LIMITS.questionMax);

const speakerIdField = z.uuid({
  error: (issue) => (issue.input === undefined ? 'Speaker is required' : 'Unknown speaker id'),
});

/**
 * POST /questions (spec: speakerId, speakerName, question, askerUsername). With `sessionId` the
 * question is the session's: `speakerId` left out asks its panel as a whole, given it must be
 * one of the session's speakers (decision 223).
 */
export const questionCreateRequestSchema = z
  .object({
    speakerId: speakerIdField.optional(),
    sessionId: z.uuid({ error: 'sessionId must be a session id' }).optional(),
    /** Sent by the dialog as the spec says; the stored name is the speaker's own. */
    speakerName: z
      .string({ error: 'speakerName must be text' })
      .max(LIMITS.speakerNameMax * 2, { error: 'speakerName is too long' })
      .optional(),
    question: questionTextSchema,
    askerUsername: usernameSchema,
    /** Ask without the name shown (decision 233); refused while the organiser does not allow it. */
    anonymous: z.boolean({ error: 'anonymous must be true or false' }).optional(),
  })
  .refine((request) => request.speakerId !== undefined || request.sessionId !== undefined, {
    error: 'Speaker is required',
    path: ['speakerId'],
  });
export type QuestionCreateRequest = z.infer<typeof questionCreateRequestSchema>;

/**
 * The ask dialog: the question, and whom it asks, picked in its list ('' until one is): a
 * speaker's id, or a session as `session:<id>` (decision 223).
 */
export const askQuestionFormSchema = z.object({
  question: questionTextSchema,
  speakerId: filledIn(QA_TEXTS.selectSpeaker, z.string()),
  anonymous: z.boolean(),
});

/** A speaker's written answer: trimmed, 1 to 2,000 characters (decision 234). */
export const answerTextSchema = multiLineText('Answer', LIMITS.answerMax);

/** The dashboard's and the console's answer form. */
export const answerFormSchema = z.object({ answer: answerTextSchema });

export const questionListSchema = z.array(questionSchema);

/**
 * GET /api/questions/realtime: one speaker's questions (`speakerId`) or everybody's, one
 * session's (`sessionId`), or one attendee's (`askerUsername`); `since` (a question id or an ISO time) keeps only newer ones,
 * `before` (an id) only older ones.
 * The answer is oldest first: the latest `limit` matches, or with `since` the first `limit`.
 */
export const questionsQuerySchema = z.object({
  speakerId: z.uuid({ error: 'speakerId must be a speaker id' }).optional(),
  /** One session's questions: its panel's and its speakers' asked in it (decision 223). */
  sessionId: z.uuid({ error: 'sessionId must be a session id' }).optional(),
  since: z
    .union([z.uuid(), z.iso.datetime({ offset: true })], {
      error: 'since must be a question id or an ISO 8601 time',
    })
    .optional(),
  before: z.uuid({ error: 'before must be a question id' }).optional(),
  /** Only the questions this attendee asked (exact username); asked under that name only. */
  askerUsername: usernameSchema.optional(),
  /**
   * `true`, with `askerUsername` and that attendee's token: their own list, their anonymous
   * questions too (decision 233).
   */
  own: z.enum(['true'], { error: 'own must be true' }).optional(),
  limit: pageQuerySchema.shape.limit,
  /** `top`: most votes first, then oldest; `recent` (default): oldest first, as before. */
  sort: z.enum(['recent', 'top'], { error: 'sort must be recent or top' }).default('recent'),
});
export type QuestionsQuery = z.infer<typeof questionsQuerySchema>;

/** PUT and DELETE /api/questions/:id/vote, PATCH and DELETE /api/questions/:id. */
export const questionParamsSchema = z.object({ id: z.uuid({ error: 'Invalid question id' }) });

/** The answer of a vote or a speaker's change: the question as it is now. */
export const questionResponseSchema = z.object({ question: questionSchema });

/** PATCH /api/questions/:id: what a speaker (or the admin) changes. */
export const questionPatchSchema = z
  .strictObject(
    {
      answered: z.boolean({ error: 'answered must be true or false' }).optional(),
      pinned: z.boolean({ error: 'pinned must be true or false' }).optional(),
      status: z
        .enum(QUESTION_STATUSES, { error: 'status must be published, pending or hidden' })
        .optional(),
      /** The written answer (decision 234); null removes it. */
      answer: answerTextSchema.nullable().optional(),
    },
    { error: 'Only answered, pinned, status and answer can be changed' },
  )
  .refine((patch) => Object.keys(patch).length > 0, {
    error: 'Send at least one of answered, pinned, status or answer',
  });
export type QuestionPatch = z.infer<typeof questionPatchSchema>;

/** GET /api/admin/questions: every status, newest first; `search` in the text, asker or speaker. */
/** The admin list's filters on what the speaker did: answered, not yet answered, pinned. */
export const ADMIN_QUESTION_FLAGS = ['answered', 'open', 'pinned'] as const;
export type AdminQuestionFlag = (typeof ADMIN_QUESTION_FLAGS)[number];

export const adminQuestionsQuerySchema = z.object({
  search: z.string().trim().max(100, { error: 'search must be at most 100 characters' }).optional(),
  status: z
    .enum(QUESTION_STATUSES, { error: 'status must be published, pending or hidden' })
    .optional(),
  /** Only the answered ones, the open (not answered) ones, or the pinned ones. */
  flag: z.enum(ADMIN_QUESTION_FLAGS, { error: 'flag must be answered, open or pinned' }).optional(),
  limit: pageQuerySchema.shape.limit,
  before: pageQuerySchema.shape.before,
});
export type AdminQuestionsQuery = z.infer<typeof adminQuestionsQuerySchema>;
