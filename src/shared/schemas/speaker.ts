import { z } from 'zod';
import { LIMITS } from '../constants.ts';
import { QA_TEXTS, SPEAKER_SECRET_MAX, SPEAKER_USERNAME_MAX } from '../qa-constants.ts';
import { filledIn, idSchema, multiLineText, nameText, singleLineText } from './common.ts';
import { questionSchema } from './question.ts';

/** A speaker as the API answers it: `picture` is a URL. */
export const speakerSchema = z.object({
  _id: idSchema,
  name: z.string(),
  username: z.string(),
  stack: z.string(),
  bio: z.string(),
  picture: z.string(),
  /** A square rendition of the picture for small circles; null for a speaker stored without one. */
  avatar: z.string().nullable(),
  message: z.string(),
  createdAt: z.iso.datetime(),
});
export type Speaker = z.infer<typeof speakerSchema>;

/** The text fields of the sign-up form (multipart `name`, `stack`, `bio`; the picture beside them). */
export const speakerFieldsSchema = z.object({
  name: nameText('Full name', LIMITS.speakerNameMax),
  stack: singleLineText('Stack', LIMITS.speakerStackMax),
  bio: multiLineText('Bio', LIMITS.speakerBioMax),
});
export type SpeakerFields = z.infer<typeof speakerFieldsSchema>;

/** GET /speakers and GET /api/speakerscard. */
export const speakerListSchema = z.array(speakerSchema);

/** POST /api/speakersadd: 201. */
export const speakerCreatedResponseSchema = z.object({
  message: z.string(),
  speaker: speakerSchema,
  /** The speaker's sign-in secret: answered once, stored only as a hash. */
  secret: z.string(),
});
export type SpeakerCreatedResponse = z.infer<typeof speakerCreatedResponseSchema>;

/** POST /api/speakers/login. */
export const speakerLoginRequestSchema = z.object({
  username: singleLineText('Username', SPEAKER_USERNAME_MAX),
  /** With the secret the answer adds a speaker token (the dashboard's controls). */
  secret: z
    .string({ error: 'secret must be text' })
    .trim()
    .min(1, { error: 'secret must not be empty' })
    .max(SPEAKER_SECRET_MAX, { error: 'Invalid secret' })
    .optional(),
});
export type SpeakerLoginRequest = z.infer<typeof speakerLoginRequestSchema>;

/** The speaker login form ("Enter your username" when blank). */
export const speakerLoginFormSchema = z.object({
  username: filledIn(QA_TEXTS.enterUsername, speakerLoginRequestSchema.shape.username),
  secret: z.string().max(SPEAKER_SECRET_MAX, { error: 'Invalid secret' }).optional(),
});

export const speakerLoginResponseSchema = z.object({
  message: z.string(),
  speaker: speakerSchema,
  /** Only when the secret was sent: `Authorization: Bearer <token>` for the speaker's calls. */
  token: z.string().optional(),
});

/** DELETE /api/speakers/:id, POST /api/speakers/:id/secret. */
export const speakerIdParamsSchema = z.object({ id: z.uuid({ error: 'Invalid speaker id' }) });

/** POST /api/speakers/:id/secret: the new secret (the old one stops working). */
export const speakerSecretResponseSchema = z.object({ secret: z.string() });

/** GET /api/speakers/:username/dashboard: the speaker and their questions, oldest first. */
export const speakerDashboardSchema = speakerSchema.extend({
  questions: z.array(questionSchema),
});
export type SpeakerDashboard = z.infer<typeof speakerDashboardSchema>;

export const speakerUsernameParamsSchema = z.object({
  username: z.string().min(1, { error: 'Username is required' }),
});
