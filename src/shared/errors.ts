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
  error: z.string(),
  code: z.enum(ERROR_CODES).optional(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;
