import { useMutation } from '@tanstack/react-query';
import { API_PATHS } from '../../../../shared/routes.ts';
import { messageResponseSchema } from '../../../../shared/schemas/common.ts';
import { speakerSecretResponseSchema } from '../../../../shared/schemas/speaker.ts';
import { apiCall } from '../../../lib/api-client.ts';
import { SPEAKERS_KEY, removeSpeakerFromLists } from '../../speakers/api/get-speakers.ts';

/** DELETE /api/speakers/:id: the speaker and their questions go, for everyone, live. */
export const useDeleteSpeaker = (token: string) =>
  useMutation({
    mutationFn: (id: string) =>
      apiCall(messageResponseSchema, API_PATHS.speaker(id), { method: 'DELETE', token }),
    onSuccess: (_data, id, _result, { client }) => {
      removeSpeakerFromLists(client, id);
      void client.invalidateQueries({ queryKey: SPEAKERS_KEY });
    },
  });

/** POST /api/speakers/:id/secret: a new sign-in secret; the old one stops working. */
export const useRenewSecret = (token: string) =>
  useMutation({
    mutationFn: (id: string) =>
      apiCall(speakerSecretResponseSchema, API_PATHS.speakerSecret(id), { method: 'POST', token }),
  });
