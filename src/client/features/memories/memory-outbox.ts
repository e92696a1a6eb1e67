import type { MemoryPostResponse } from '../../../shared/schemas/memory.ts';
import { translate } from '../../i18n/language.ts';
import { ApiError, errorMessage } from '../../lib/api-client.ts';
import { getAttendeeToken } from '../../lib/attendee-token.ts';
import { type QueuedItem, registerSender } from '../../lib/offline-queue.ts';
import { queryClient } from '../../lib/query-client.ts';
import { postMemory } from './api/create-memory.ts';
import { type GalleryData, galleryQueryKey } from './api/get-memories.ts';
import { mergeMemories } from './memory-cache.ts';
import { keepOwnPending } from './own-pending.ts';
import { postedText } from './posted-message.ts';
import { ownMemoriesQueryKey } from './api/get-own-memories.ts';

/** A file the server refused on its own (not a picture or video, damaged, too large). */
const isFileRefusal = (error: unknown): error is ApiError =>
  error instanceof ApiError && [400, 413, 415].includes(error.status);

/**
 * How a queued memory post is sent. With an attendee token, file by file over tus: each file
 * finished is taken off the stored item, so a page closed midway sends only what is left, and
 * the file in flight resumes from the server's offset. Without one, the whole post at once with
 * its id as `Idempotency-Key`, so a repeat after a lost answer makes nothing twice.
 */
registerSender('memory', async (item: QueuedItem, { update, progress, waiting, signal }) => {
  const { caption = '', username = '', postId = '' } = item.payload;
  const token = getAttendeeToken();
  // Published ones join the gallery at once; one awaiting approval shows to its poster alone.
  const show = (memories: MemoryPostResponse['memories']) => {
    const published = memories.filter((memory) => memory.status === 'published');
    queryClient.setQueryData<GalleryData>(galleryQueryKey, (data) =>
      mergeMemories(data, published),
    );
    keepOwnPending(memories);
    void queryClient.invalidateQueries({ queryKey: ownMemoriesQueryKey });
  };
  if (!token) {
    const result = await postMemory({
      caption,
      username,
      files: item.files,
      postId,
      signal,
      onProgress: progress,
    });
    show(result.memories);
    return result;
  }
  const total = item.files.reduce((sum, file) => sum + file.size, 0) || 1;
  let sent = 0;
  let remaining = [...item.files];
  const memories: MemoryPostResponse['memories'] = [];
  const refused: MemoryPostResponse['refused'] = [];
  let firstRefusal: ApiError | undefined;
  while (remaining.length > 0) {
    const [file, ...rest] = remaining;
    if (!file) break;
    try {
      const result = await postMemory({
        caption,
        username,
        files: [file],
        postId,
        token,
        signal,
        onWaiting: waiting,
        onProgress: (fraction) => progress((sent + fraction * file.size) / total),
      });
      memories.push(...result.memories);
      show(result.memories);
    } catch (error) {
      // One bad file does not sink the post: the others go on, and the answer names it.
      if (!isFileRefusal(error)) throw error;
      refused.push({
        filename: file.name,
        error: errorMessage(error, translate('memories.fileRefused', { fileName: file.name })),
      });
      firstRefusal ??= error;
    }
    sent += file.size;
    remaining = rest;
    await update({ ...item, files: remaining });
  }
  if (memories.length === 0 && firstRefusal) throw firstRefusal;
  return { message: postedText({ memories, refused }), memories, refused };
});
