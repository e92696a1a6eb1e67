import { z } from 'zod';
import { LIMITS, TEXTS } from '../constants.ts';
import { cleanName } from '../names.ts';

// In the browser the page's Content-Security-Policy (script-src 'self') forbids eval, so zod's
// compiled parsers can never run there; `jitless` also skips the `new Function` probe zod makes
// to find out, which the browser reports as a CSP violation (decision 074). The server keeps them.
if ('document' in globalThis) z.config({ jitless: true });

/** Ids are UUIDv7, made in code, so they sort by creation time. */
export const idSchema = z.uuid({ error: 'Invalid id' });

// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** The checks of a line of text: trimmed, 1 to `max` characters, no control characters. */
const lineChecks = (text: z.ZodString, label: string, max: number) =>
  text
    .trim()
    .min(1, { error: `${label} is required` })
    .max(max, { error: `${label} must be at most ${max} characters` })
    .refine((value) => !CONTROL_CHARS.test(value) && !/[\r\n]/.test(value), {
      error: `${label} contains characters that are not allowed`,
    });

/** A line of text a person typed: trimmed, no control characters. */
export const singleLineText = (label: string, max: number) =>
  lineChecks(z.string({ error: `${label} is required` }), label, max);

/**
 * A name others see (a username, a speaker's name): a line of text without the characters that
 * print nothing or reorder it (`cleanName`, decision 194), removed before it is trimmed and
 * checked, so a name of nothing visible is refused as an empty one.
 */
export const nameText = (label: string, max: number) =>
  lineChecks(z.string({ error: `${label} is required` }).overwrite(cleanName), label, max);

/** Multi-line text a person typed: trimmed, newlines and tabs allowed. */
export const multiLineText = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, { error: `${label} is required` })
    .max(max, { error: `${label} must be at most ${max} characters` })
    .refine((value) => !CONTROL_CHARS.test(value), {
      error: `${label} contains characters that are not allowed`,
    });

/** An attendee's username (spec: non-empty; bound chosen in docs/decisions). */
export const usernameSchema = nameText('Username', LIMITS.usernameMax);

/**
 * A form field that must be filled in, with the spec's own message when it is left empty or
 * holds nothing visible.
 */
export const filledIn = <T extends z.ZodType<unknown, string>>(message: string, schema: T) =>
  z.string().overwrite(cleanName).trim().min(1, { error: message }).pipe(schema);

/** The join form: the username an attendee picks ("Enter your username!!" when blank). */
export const joinFormSchema = z.object({
  username: filledIn(TEXTS.joinEmptyUsername, usernameSchema),
});

/** Paging of list endpoints: `limit` (default 60, at most 200) and `before` (an id). */
export const pageQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int({ error: 'limit must be a whole number' })
    .min(1, { error: 'limit must be at least 1' })
    .max(LIMITS.pageSizeMax, { error: `limit must be at most ${LIMITS.pageSizeMax}` })
    .default(LIMITS.pageSizeDefault),
  before: idSchema.optional(),
});

export const messageResponseSchema = z.object({ message: z.string() });
