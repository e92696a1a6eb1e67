import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API_PATHS } from '../../../../shared/routes.ts';
import {
  type MemoryPostResponse,
  type OwnMemories,
  memoryPostResponseSchema,
} from '../../../../shared/schemas/memory.ts';
import { useWithAttendeeToken } from '../../../lib/attendee-token.ts';
import { uploadForm } from '../../../lib/upload.ts';
import { mergeMemories } from '../memory-cache.ts';
import { keepOwnPending } from '../own-pending.ts';
import { type GalleryData, galleryQueryKey } from './get-memories.ts';
import { ownMemoriesQueryKey } from './get-own-memories.ts';

export interface NewMemoryPost {
  caption: string;
  username: string;
  files: File[];
  /** `files` for the memory form, `media` for the share dialog (both accepted). */
  field?: 'files' | 'media';
  onProgress?: (fraction: number) => void;
  /** The attendee token: the post becomes theirs to delete (decision 142). */
  token?: string | undefined;
}

/** POST /api/memories: caption and username first, so bad text is refused before the upload. */
export async function postMemory({
  caption,
  username,
  files,
  field = 'files',
  onProgress,
  token,
}: NewMemoryPost): Promise<MemoryPostResponse> {
  const body = new FormData();
  body.append('caption', caption);
  body.append('username', username);
  for (const file of files) body.append(field, file, file.name);
  return uploadForm(memoryPostResponseSchema, API_PATHS.memoryCreate, body, { onProgress, token });
}

/**
 * Posts a memory with the attendee token and shows it in the gallery at once (the socket may
 * bring it too: no twins), as the attendee's own; one awaiting approval is shown to its poster
 * alone, as waiting.
 */
export function useCreateMemory() {
  const queryClient = useQueryClient();
  const withToken = useWithAttendeeToken();
  return useMutation({
    mutationFn: (post: NewMemoryPost) => withToken((token) => postMemory({ ...post, token })),
    onSuccess: ({ memories }) => {
      const published = memories.filter((memory) => memory.status === 'published');
      queryClient.setQueryData<GalleryData>(galleryQueryKey, (data) =>
        mergeMemories(data, published),
      );
      keepOwnPending(memories);
      queryClient.setQueryData<OwnMemories>(ownMemoriesQueryKey, (data) =>
        data ? { ids: [...memories.map((memory) => memory._id), ...data.ids] } : data,
      );
      void queryClient.invalidateQueries({ queryKey: ownMemoriesQueryKey });
    },
  });
}
