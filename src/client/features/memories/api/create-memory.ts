import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API_PATHS } from '../../../../shared/routes.ts';
import {
  type MemoryPostResponse,
  memoryPostResponseSchema,
} from '../../../../shared/schemas/memory.ts';
import { uploadForm } from '../../../lib/upload.ts';
import { mergeMemories } from '../memory-cache.ts';
import { keepOwnPending } from '../own-pending.ts';
import { type GalleryData, galleryQueryKey } from './get-memories.ts';

export interface NewMemoryPost {
  caption: string;
  username: string;
  files: File[];
  /** `files` for the memory form, `media` for the share dialog (both accepted). */
  field?: 'files' | 'media';
  onProgress?: (fraction: number) => void;
}

/** POST /api/memories: caption and username first, so bad text is refused before the upload. */
export async function postMemory({
  caption,
  username,
  files,
  field = 'files',
  onProgress,
}: NewMemoryPost): Promise<MemoryPostResponse> {
  const body = new FormData();
  body.append('caption', caption);
  body.append('username', username);
  for (const file of files) body.append(field, file, file.name);
  return uploadForm(memoryPostResponseSchema, API_PATHS.memoryCreate, body, { onProgress });
}

/**
 * Posts a memory and shows it in the gallery at once (the socket may bring it too: no twins);
 * one awaiting approval is shown to its poster alone, as waiting.
 */
export function useCreateMemory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: postMemory,
    onSuccess: ({ memories }) => {
      const published = memories.filter((memory) => memory.status === 'published');
      queryClient.setQueryData<GalleryData>(galleryQueryKey, (data) =>
        mergeMemories(data, published),
      );
      keepOwnPending(memories);
    },
  });
}
