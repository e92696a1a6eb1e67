import { cleanName } from '../../shared/names.ts';
import { HttpError } from '../http/errors.ts';
import type { Attendee } from './callers.ts';

/** The refusal of a name that is not the token's, by what was being done. */
export const NOT_YOURSELF = {
  upload: 'You can only upload as yourself',
  ask: 'You can only ask as yourself',
} as const;

/**
 * With an attendee token, a post goes out under the token's username only: a memory's
 * `username` (a form post or a resumable upload) and a question's `askerUsername` must be the
 * name the token was issued for, else a 403. Both are compared as stored, cleaned of invisible
 * characters and trimmed (decision 194); letter case counts, as two attendees may differ only in
 * it. Without a token any name passes: the spec's calls send none.
 */
export function requireOwnUsername(
  attendee: Attendee | null | undefined,
  username: string,
  doing: keyof typeof NOT_YOURSELF,
): void {
  if (!attendee) return;
  if (cleanName(username).trim() !== cleanName(attendee.username).trim()) {
    throw new HttpError(403, NOT_YOURSELF[doing]);
  }
}
