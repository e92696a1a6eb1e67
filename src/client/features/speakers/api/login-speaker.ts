import { useMutation } from '@tanstack/react-query';
import { API_PATHS } from '../../../../shared/routes.ts';
import {
  type SpeakerLoginRequest,
  speakerLoginResponseSchema,
} from '../../../../shared/schemas/speaker.ts';
import { apiCall } from '../../../lib/api-client.ts';

/** POST /api/speakers/login: `{ message: "Login successful!", speaker }` or an error. */
export const loginSpeaker = (request: SpeakerLoginRequest) =>
  apiCall(speakerLoginResponseSchema, API_PATHS.speakerLogin, { method: 'POST', json: request });

export const useLoginSpeaker = () => useMutation({ mutationFn: loginSpeaker });
