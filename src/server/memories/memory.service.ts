import { MEMORY_TEXTS } from '../../shared/constants.ts';
import type { Memory } from '../../shared/schemas/memory.ts';
import type { AppDeps } from '../deps.ts';
import { newId } from '../lib/ids.ts';
import type { Transaction } from 'kysely';
import type { Database } from '../db/database.ts';
import {
  type StoredMemory,
  deleteMemoryRow,
  insertMemories,
  setMemoryStatus,
} from './memory.repository.ts';
import {
  type ReceivedPost,
  type StoreFile,
  type UploadContext,
  receiveMemoryPost,
} from './memory-upload.ts';
import type { MemoryPostFields } from '../../shared/schemas/memory.ts';

/** The success message of a post (the server's message is shown as the toast). */
export const postedMessage = (count: number, pending = false): string =>
  pending
    ? MEMORY_TEXTS.postedPending(count)
    : count === 1
      ? 'Memory shared successfully!'
      : `${count} memories shared successfully!`;

/** Thrown by a post's `alongside` claim when the same post was already made: nothing is kept. */
export class AlreadyPostedError extends Error {
  constructor() {
    super('This post was made already');
    this.name = 'AlreadyPostedError';
  }
}

/** What a caller of `postMemory` adds to the post's own transaction. */
export interface PostOptions {
  /** The post the memories join (a post sent as one resumable upload per file); else a new one. */
  postId?: string | undefined;
  /**
   * Runs in the transaction that inserts the memories, with them: a claim that makes the post
   * happen once (an upload's id, an `Idempotency-Key`). When it throws, nothing is kept.
   */
  alongside?: (trx: Transaction<Database>, memories: Memory[]) => Promise<void>;
}

/**
 * Stores a post's files and text, one memory per file (one post id, one caption, one username),
 * then tells every open gallery. All or nothing: when the rows cannot be written, the files just
 * stored go too.
 */
export async function createMemories(
  deps: Pick<AppDeps, 'db' | 'realtime' | 'clock' | 'lists' | 'settings'>,
  post: ReceivedPost,
  options: PostOptions = {},
): Promise<Memory[]> {
  // With approval on, nobody but the admin and the poster sees them until approved.
  const status = deps.settings.current.moderateMemories ? 'pending' : 'published';
  const postId = options.postId ?? newId();
  const createdAt = deps.clock.now().toISOString();
  // Ids sort by time; the first file gets the newest, so the gallery shows the post in order.
  const ids = post.files.map(() => newId()).reverse();
  let memories: Memory[];
  try {
    memories = await deps.db.transaction().execute(async (trx) => {
      const inserted = await insertMemories(
        trx,
        post.files.map((file, index) => ({
          id: ids[index] ?? newId(),
          postId,
          username: post.fields.username,
          text: post.fields.caption,
          createdAt,
          status,
          ...file,
        })),
      );
      await options.alongside?.(trx, inserted);
      return inserted;
    });
  } catch (error) {
    await post.discard();
    throw error;
  }
  await deps.lists.changed('memories');
  for (const memory of [...memories].reverse()) deps.realtime.memoryCreated(memory);
  // In the order of the post, which is newest first, as the list answers them.
  return memories;
}

/**
 * The one way a memory is posted, whichever way its bytes come (`POST /api/memories`, a finished
 * resumable upload): each file `read` hands over is checked by its bytes, rendered and stored
 * without its metadata, then the memories are inserted (with `options.alongside`) and announced.
 */
export async function postMemory(
  deps: Pick<AppDeps, 'db' | 'realtime' | 'clock' | 'lists' | 'settings'>,
  context: UploadContext,
  read: (storeFile: StoreFile) => Promise<MemoryPostFields>,
  options: PostOptions = {},
): Promise<Memory[]> {
  return createMemories(deps, await receiveMemoryPost(context, read), options);
}

/**
 * Publishes a pending memory (the admin's approval): every open gallery and wall gets it at once
 * (`memoryUpdated`). `alongside` runs in the same transaction (the moderation log) when the
 * status changed. Approving a published memory changes nothing. Undefined: no such memory.
 */
export async function approveMemory(
  deps: Pick<AppDeps, 'db' | 'realtime' | 'lists'>,
  id: string,
  alongside?: (trx: Transaction<Database>, memory: Memory) => Promise<void>,
): Promise<Memory | undefined> {
  const result = await deps.db.transaction().execute(async (trx) => {
    const set = await setMemoryStatus(trx, id, 'published');
    if (set?.changed && alongside) await alongside(trx, set.memory);
    return set;
  });
  if (!result) return undefined;
  if (result.changed) {
    await deps.lists.changed('memories');
    deps.realtime.memoryUpdated(result.memory);
  }
  return result.memory;
}

/**
 * Deletes a memory, then its files, then tells every open gallery. `alongside` runs in the
 * deletion's transaction (the moderation log): when it fails, nothing is deleted. Files go only
 * after the commit, so a failed deletion never leaves a row without its files. Answers false when
 * there was no such memory (deleting twice is harmless).
 */
export async function deleteMemory(
  deps: Pick<AppDeps, 'db' | 'media' | 'realtime' | 'lists'>,
  id: string,
  alongside?: (trx: Transaction<Database>, removed: StoredMemory) => Promise<void>,
): Promise<boolean> {
  const removed = await deps.db.transaction().execute(async (trx) => {
    const row = await deleteMemoryRow(trx, id);
    if (row && alongside) await alongside(trx, row);
    return row;
  });
  if (!removed) return false;
  await deps.lists.changed('memories');
  deps.realtime.memoryDeleted(id);
  await Promise.all(removed.mediaKeys.map((key) => deps.media.delete(key)));
  return true;
}
