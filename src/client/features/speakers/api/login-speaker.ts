import { useMutation } from '@tanstack/react-query';
import { API_PATHS } from '../../../../shared/routes.ts';
import {
  type SpeakerLoginRequest,
  type SpeakerLoginResponse,
  speakerLoginResponseSchema,
} from '../../../../shared/schemas/speaker.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST /api/speakers/login: `{ message: "Login successful!", speaker }` or an error. */
export const loginSpeaker = async (request: SpeakerLoginRequest): Promise<SpeakerLoginResponse> =>
  speakerLoginResponseSchema.parse(
    await apiRequest(API_PATHS.speakerLogin, { method: 'POST', json: request }),
  );

export const useLoginSpeaker = () => useMutation({ mutationFn: loginSpeaker });
