import { API_PATHS } from '../../shared/routes.ts';
import { attendeeResponseSchema } from '../../shared/schemas/attendee.ts';
import { apiCall } from './api-client.ts';

let pending: Promise<string | undefined> | undefined;

/** `POST /api/attendees`: a signed attendee token for a username; undefined when it failed. */
export function requestAttendeeToken(username: string): Promise<string | undefined> {
  pending ??= apiCall(attendeeResponseSchema, API_PATHS.attendees, {
    method: 'POST',
    json: { username },
  })
    .then(({ token }) => token)
    .catch(() => undefined)
    .finally(() => {
      pending = undefined;
    });
  return pending;
}
