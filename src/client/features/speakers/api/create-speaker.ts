import { useMutation } from '@tanstack/react-query';
import { API_PATHS } from '../../../../shared/routes.ts';
import {
  type SpeakerCreatedResponse,
  type SpeakerFields,
  speakerCreatedResponseSchema,
} from '../../../../shared/schemas/speaker.ts';
import { apiCall } from '../../../lib/api-client.ts';

export interface CreateSpeakerInput extends SpeakerFields {
  picture: File;
}

/** POST /api/speakersadd, multipart: name, stack, bio, picture. */
export async function createSpeaker(input: CreateSpeakerInput): Promise<SpeakerCreatedResponse> {
  const form = new FormData();
  form.append('name', input.name);
  form.append('stack', input.stack);
  form.append('bio', input.bio);
  form.append('picture', input.picture, input.picture.name);
  return apiCall(speakerCreatedResponseSchema, API_PATHS.speakerAdd, { method: 'POST', form });
}

export const useCreateSpeaker = () => useMutation({ mutationFn: createSpeaker });
