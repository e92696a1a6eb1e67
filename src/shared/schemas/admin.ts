import { z } from 'zod';
import { ADMIN_LIMITS } from '../constants.ts';
import { idSchema, pageQuerySchema } from './common.ts';
import { memoryStatusSchema } from './memory.ts';

/** Credentials are compared as typed (no trimming of the password); both are required. */
export const adminLoginRequestSchema = z.object({
  username: z
    .string({ error: 'Username is required' })
    .trim()
    .min(1, { error: 'Username is required' })
    .max(ADMIN_LIMITS.credentialMax, {
      error: `Username must be at most ${ADMIN_LIMITS.credentialMax} characters`,
    }),
  password: z
    .string({ error: 'Password is required' })
    .min(1, { error: 'Password is required' })
    .max(ADMIN_LIMITS.credentialMax, {
      error: `Password must be at most ${ADMIN_LIMITS.credentialMax} characters`,
    }),
});
export type AdminLoginRequest = z.infer<typeof adminLoginRequestSchema>;

/** POST /api/admin/login: the spec's `message` and `token`, plus when the token expires. */
export const adminLoginResponseSchema = z.object({
  message: z.string(),
  token: z.string(),
  expiresAt: z.iso.datetime(),
});

/** GET /api/admin: the token is good; who it belongs to and until when. */
export const adminCheckResponseSchema = z.object({
  message: z.string(),
  username: z.string(),
  expiresAt: z.iso.datetime(),
});
export type AdminCheckResponse = z.infer<typeof adminCheckResponseSchema>;

/** GET /api/media: the gallery's paging plus a search over username and caption. */
export const adminMediaQuerySchema = pageQuerySchema.extend({
  search: z
    .string()
    .trim()
    .max(ADMIN_LIMITS.searchMax, {
      error: `search must be at most ${ADMIN_LIMITS.searchMax} characters`,
    })
    .optional(),
  /** Only memories of this status (`pending`: those awaiting approval); every status without. */
  status: memoryStatusSchema.optional(),
});
export type AdminMediaQuery = z.infer<typeof adminMediaQuerySchema>;

export const adminMediaParamsSchema = z.object({ id: idSchema });

/** One line of the moderation log: who did what to which memory, and when. */
export const adminAuditEntrySchema = z.object({
  _id: idSchema,
  adminUsername: z.string(),
  action: z.literal('memory.delete'),
  targetId: z.string(),
  /** What the deleted memory was, so the log still says something once it is gone. */
  memory: z.object({
    username: z.string(),
    text: z.string(),
    contentType: z.string(),
    createdAt: z.string(),
  }),
  createdAt: z.iso.datetime(),
});
export type AdminAuditEntry = z.infer<typeof adminAuditEntrySchema>;

export const adminAuditQuerySchema = pageQuerySchema;

/** POST /api/admin/purge: the event's name, typed exactly, confirms it (decision 218). */
export const purgeRequestSchema = z
  .object({
    confirm: z
      .string({ error: 'confirm must be the event’s name' })
      .max(200, { error: 'confirm must be the event’s name' }),
  })
  .strict();

/** What a purge (or the retention sweep) removed, by kind. */
export const purgeRemovedSchema = z.object({
  attendees: z.number(),
  memories: z.number(),
  /** Stored files of those memories (renditions, posters, masters) and unfinished uploads. */
  files: z.number(),
  questions: z.number(),
  votes: z.number(),
  /** Unfinished (and finished) resumable uploads. */
  uploads: z.number(),
  /** Answers to polls (0 until the event has polls). */
  pollAnswers: z.number(),
});
export type PurgeRemoved = z.infer<typeof purgeRemovedSchema>;

export const purgeResponseSchema = z.object({ removed: purgeRemovedSchema });
