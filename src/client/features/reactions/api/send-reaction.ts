import { useMutation } from '@tanstack/react-query';
import { API_PATHS } from '../../../../shared/routes.ts';
import { messageResponseSchema } from '../../../../shared/schemas/common.ts';
import type { ReactionRequest } from '../../../../shared/schemas/reaction.ts';
import { apiCall } from '../../../lib/api-client.ts';
import { useWithAttendeeToken } from '../../../lib/attendee-token.ts';

/** POST /api/reactions: one tap, with the attendee token (202). */
export const sendReaction = (input: ReactionRequest, token: string | undefined) =>
  apiCall(messageResponseSchema, API_PATHS.reactions, {
    method: 'POST',
    json: input,
    token: token ?? null,
  });

/** Sends a tap; nothing is cached: what the room tapped comes back as `reactions` events. */
export function useSendReaction() {
  const withToken = useWithAttendeeToken();
  return useMutation({
    mutationFn: (input: ReactionRequest) => withToken((token) => sendReaction(input, token)),
  });
}
