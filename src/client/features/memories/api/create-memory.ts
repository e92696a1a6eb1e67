import { API_PATHS } from '../../../../shared/routes.ts';
import {
  type MemoryPostResponse,
  memoryPostResponseSchema,
  memorySchema,
} from '../../../../shared/schemas/memory.ts';
import { IDEMPOTENCY_KEY_HEADER } from '../../../../shared/schemas/upload.ts';
import { apiCall } from '../../../lib/api-client.ts';
import { uploadResumable } from '../../../lib/resumable-upload.ts';
import { uploadForm } from '../../../lib/upload.ts';
import { postedText } from '../posted-message.ts';

export interface NewMemoryPost {
  caption: string;
  username: string;
  files: File[];
  /** `files` for the memory form, `media` for the share dialog (both accepted). */
  field?: 'files' | 'media';
  onProgress?: (fraction: number) => void;
  /** Each file's share sent so far (0 to 1), in the order of `files`. */
  onFileProgress?: (fractions: number[]) => void;
  /** True while the connection is gone and the post waits for it. */
  onWaiting?: (waiting: boolean) => void;
  /** One per post, made once: a repeat of the same post (a lost answer) creates nothing. */
  postId?: string;
  /** The attendee token: with it, files go resumably over tus. */
  token?: string | undefined;
  signal?: AbortSignal;
}

/**
 * Posts a memory. With an attendee token, each file goes resumably over tus (`/api/uploads`),
 * one after the other, all under the post's id, and the memories they became are read back;
 * without one, `POST /api/memories` (caption and username first, so bad text is refused before
 * the upload) with the post's `Idempotency-Key`.
 */
export async function postMemory(post: NewMemoryPost): Promise<MemoryPostResponse> {
  const { caption, username, files, field = 'files', onProgress, postId = newPostId() } = post;
  if (post.token) return postResumably({ ...post, postId, token: post.token });
  const body = new FormData();
  body.append('caption', caption);
  body.append('username', username);
  for (const file of files) body.append(field, file, file.name);
  return uploadForm(memoryPostResponseSchema, API_PATHS.memoryCreate, body, {
    onProgress,
    headers: { [IDEMPOTENCY_KEY_HEADER]: postId },
    ...(post.signal ? { signal: post.signal } : {}),
  });
}

/** A post's id: a UUID made in the browser (it doubles as its Idempotency-Key). */
export const newPostId = (): string => crypto.randomUUID();

async function postResumably(
  post: NewMemoryPost & { postId: string; token: string },
): Promise<MemoryPostResponse> {
  const total = post.files.reduce((sum, file) => sum + file.size, 0) || 1;
  const fractions = post.files.map(() => 0);
  const ids: string[] = [];
  for (const [index, file] of post.files.entries()) {
    ids.push(
      await uploadResumable({
        file,
        token: post.token,
        metadata: { caption: post.caption, username: post.username, postId: post.postId },
        onProgress: (sent, size) => {
          fractions[index] = size > 0 ? sent / size : 1;
          post.onFileProgress?.([...fractions]);
          const done = post.files.reduce((sum, f, i) => sum + f.size * (fractions[i] ?? 0), 0);
          post.onProgress?.(done / total);
        },
        ...(post.onWaiting ? { onWaiting: post.onWaiting } : {}),
        ...(post.signal ? { signal: post.signal } : {}),
      }),
    );
  }
  // The memories as the gallery shows them; one awaiting approval is its poster's to see.
  const memories = await Promise.all(
    ids.map((id) =>
      apiCall(memorySchema, `${API_PATHS.memoryList}/${encodeURIComponent(id)}`, {
        token: post.token,
      }).catch(() => null),
    ),
  );
  // In the order the files were picked, as every list shows them.
  const made = memories.filter((memory) => memory !== null);
  const answer = { memories: made, refused: [] };
  return { message: postedText(answer, post.files.length), ...answer };
}
