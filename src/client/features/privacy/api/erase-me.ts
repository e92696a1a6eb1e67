import { API_PATHS } from '../../../../shared/routes.ts';
import { type ErasureResponse, erasureResponseSchema } from '../../../../shared/schemas/privacy.ts';
import { apiCall } from '../../../lib/api-client.ts';

/** DELETE /api/attendees/me: erases everything of the attendee whose token this is. */
export const eraseMe = (token: string): Promise<ErasureResponse> =>
  apiCall(erasureResponseSchema, API_PATHS.attendeeMe, { method: 'DELETE', token });
