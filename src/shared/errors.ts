import { z } from 'zod';

/** Stable error codes: the `code` of every error answer. */
export const ERROR_CODES = [
  'BAD_REQUEST',
  'VALIDATION',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'PROOF_REQUIRED',
  'PROOF_INVALID',
  'TOO_MANY_UPLOADS',
  'UPLOADS_FULL',
  'IDEMPOTENCY_KEY_REUSED',
  'BLOCKED_WORDS',
  'SCHEDULE_INVALID',
  'SCHEDULE_URL_REFUSED',
  'SERVICE_UNAVAILABLE',
  'INTERNAL',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** The one error shape of the API. */
export const errorResponseSchema = z.object({
  /** The refusal in English, as every client has always shown it. */
  error: z.string(),
  code: z.enum(ERROR_CODES).optional(),
  /** The message's stable name (`conflict.duplicateQuestion`), to write it in another language. */
  messageId: z.string().optional(),
  /** What the message is made from, by name (`{ seconds: 12 }`). */
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;
