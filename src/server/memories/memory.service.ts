import type { Memory, RefusedFile } from '../../shared/schemas/memory.ts';
import type { Attendee, Caller } from '../auth/callers.ts';
import { authorize, can } from '../auth/policies.ts';
import { notFound } from '../http/errors.ts';
import type { AppDeps } from '../deps.ts';
import type { MediaStore } from '../media/media-store.ts';
import { randomInt } from 'node:crypto';
import { idJustBefore, newId } from '../lib/ids.ts';
import type { Transaction } from 'kysely';
import type { Database } from '../db/database.ts';
import { WHOLE_LIST } from '../lists/list-cache.ts';
import type { ListView } from '../lists/list-route.ts';
import { dismissReports } from './report.repository.ts';
import {
  type StoredMemory,
  clearOpenReports,
  deleteMemoryRow,
  findMemory,
  insertMemories,
  listGalleryPage,
  listOwnMemories,
  listOwnMemoryIds,
  oldestIdOfPost,
  setMemoryStatus,
} from './memory.repository.ts';
import {
  type ReceivedPost,
  type StoreFile,
  type UploadContext,
  receiveMemoryPost,
} from './memory-upload.ts';
import type { MemoryPostFields } from '../../shared/schemas/memory.ts';
import { type Screened, screenText } from '../moderation/screen.ts';

/**
 * A polled view of the memories (a page of the gallery, of the moderation screen): versioned with
 * the whole list, as any post, approval or deletion can change any page.
 */
export const memoriesView = (key: string, rows: ListView['rows']): ListView => ({
  topic: 'memories',
  scope: WHOLE_LIST,
  key,
  rows,
});

/** A page of the gallery: its length, and the id it starts before. */
interface GalleryPage {
  limit: number;
  before?: string | undefined;
}

/** The name of one gallery page's answer: every spelling of the same page shares it. */
const galleryKey = (page: GalleryPage) =>
  JSON.stringify(['gallery', page.limit, page.before ?? null]);

/** One page of the gallery, as every attendee polls it (decision 101). */
export const galleryView = (deps: Pick<AppDeps, 'db'>, page: GalleryPage): ListView =>
  memoriesView(galleryKey(page), () => listGalleryPage(deps.db, page));

/** The most own-memory ids `GET /api/memories/mine` answers (an attendee's recent posts). */
const OWN_MEMORIES_MAX = 500;

/** The ids of the memories `attendee` posted, newest first (their recent posts). */
export const ownMemoryIds = (deps: Pick<AppDeps, 'db'>, attendee: Attendee): Promise<string[]> =>
  listOwnMemoryIds(deps.db, attendee.id, OWN_MEMORIES_MAX);

/**
 * One memory as `caller` may see it (`see memory`): a published one, to anybody; one awaiting
 * approval only to the attendee who posted it, and to anybody else it is as missing as an
 * unknown id (404).
 */
export async function visibleMemory(
  deps: Pick<AppDeps, 'db'>,
  id: string,
  caller: Caller,
): Promise<Memory> {
  const found = await findMemory(deps.db, id);
  if (!found) throw notFound('memory');
  if (found.memory.status !== 'published') {
    // A memory awaiting approval is nobody's business but the admin's and its poster's.
    const memory = { status: found.memory.status, ownerId: found.ownerId };
    if (!can(caller, 'see memory', memory)) throw notFound('memory');
  }
  return found.memory;
}

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
  alongside?: (trx: Transaction<Database>, posted: PostedMemories) => Promise<void>;
  /** The attendee who sent the post, its owner (decision 142); null or absent when none did. */
  owner?: Attendee | null | undefined;
}

/** What a post became: its memories, and the files refused on their own (decision 144). */
export interface PostedMemories {
  memories: Memory[];
  refused: RefusedFile[];
}

/**
 * Stores a post's files and text, one memory per file (one post id, one caption, one username,
 * the attendee who sent it as owner when a token came with it), then tells every open gallery.
 * When the rows cannot be written, the files just stored go too.
 */
export async function createMemories(
  deps: Pick<AppDeps, 'db' | 'events' | 'clock' | 'settings' | 'renditions'>,
  post: ReceivedPost,
  options: PostOptions = {},
): Promise<Memory[]> {
  let caption: Screened;
  try {
    // The name too: a post without a token names its poster itself (decision 236).
    screenText(deps.settings.blockedWords, 'username', post.fields.username);
    caption = screenText(deps.settings.blockedWords, 'caption', post.fields.caption);
  } catch (error) {
    // Refused for a blocked word: the files just stored go, nothing of the post is kept.
    await post.discard();
    throw error;
  }
  // With approval on (or a blocked word held), only the admin and the poster see them until approved.
  const status = deps.settings.current.moderateMemories || caption.held ? 'pending' : 'published';
  const postId = options.postId ?? newId();
  const createdAt = deps.clock.now().toISOString();
  let memories: Memory[];
  try {
    memories = await deps.db.transaction().execute(async (trx) => {
      const ids = await postIds(trx, options.postId, post.files.length);
      const inserted = await insertMemories(
        trx,
        post.files.map((file, index) => ({
          id: ids[index] ?? newId(),
          postId,
          username: post.fields.username,
          text: caption.text,
          createdAt,
          status,
          ownerId: options.owner?.id ?? null,
          ...file,
        })),
      );
      await options.alongside?.(trx, { memories: inserted, refused: post.refused });
      return inserted;
    });
  } catch (error) {
    await post.discard();
    throw error;
  }
  // Oldest first, so that screens which put each new one on top show them in the post's order.
  for (const memory of [...memories].reverse()) {
    await deps.events.publish({ type: 'memoryCreated', memory });
  }
  // Videos get their playable rendition in the background (decision 154).
  for (const memory of memories) {
    if (memory.processing) deps.renditions.enqueue(memory._id, memory.username);
  }
  // In the order of the post, which is newest first, as the list answers them.
  return memories;
}

/**
 * The ids of a post's next `count` files, in the order they were picked (decision 200). Lists go
 * newest first by id, so the first file takes the newest id and each next one an older id. A
 * post sent one file at a time (one resumable upload per file, under one post id) goes on just
 * below the ids its earlier files took: it keeps the place of its first file, and its files stay
 * next to each other, in order, in every list and on every page.
 */
async function postIds(
  trx: Transaction<Database>,
  postId: string | undefined,
  count: number,
): Promise<string[]> {
  const last = postId === undefined ? undefined : await oldestIdOfPost(trx, postId);
  if (last === undefined) return Array.from({ length: count }, () => newId()).reverse();
  // A step of a few thousand: two files of one post finishing at once seldom take the same id.
  const step = 1 + randomInt(4096);
  return Array.from({ length: count }, (_, index) => idJustBefore(last, step * (index + 1)));
}

/**
 * The one way a memory is posted, whichever way its bytes come (`POST /api/memories`, a finished
 * resumable upload): each file `read` hands over is checked by its bytes, rendered and stored
 * without its metadata, then the memories are inserted (with `options.alongside`) and announced.
 */
export async function postMemory(
  deps: Pick<AppDeps, 'db' | 'events' | 'clock' | 'settings' | 'renditions'>,
  context: UploadContext,
  read: (storeFile: StoreFile) => Promise<MemoryPostFields>,
  options: PostOptions = {},
): Promise<PostedMemories> {
  const post = await receiveMemoryPost(context, read);
  return { memories: await createMemories(deps, post, options), refused: post.refused };
}

/** What the admin's approval (or keeping) of a memory changed. */
export interface Approval {
  memory: Memory;
  /** Whether it was published by it (it was pending: awaiting approval, or hidden by reports). */
  published: boolean;
  /** How many open reports on it were dismissed (decision 216). */
  dismissedReports: number;
}

/**
 * Publishes a pending memory (the admin's approval), or keeps a reported one (decision 216):
 * every open gallery and wall gets it at once (`memoryUpdated`), and its open reports are
 * dismissed, their reporters not counted again. `alongside` runs in the same transaction (the
 * moderation log) when anything changed. Approving a published memory without open reports
 * changes nothing. Undefined: no such memory.
 */
export async function approveMemory(
  deps: Pick<AppDeps, 'db' | 'events' | 'clock'>,
  id: string,
  alongside?: (trx: Transaction<Database>, approval: Approval) => Promise<void>,
): Promise<Memory | undefined> {
  const result = await deps.db.transaction().execute(async (trx) => {
    const set = await setMemoryStatus(trx, id, 'published');
    if (!set) return undefined;
    const dismissedReports = await dismissReports(trx, id, deps.clock.now().toISOString());
    if (dismissedReports > 0) await clearOpenReports(trx, id);
    const approval = { memory: set.memory, published: set.changed, dismissedReports };
    if ((set.changed || dismissedReports > 0) && alongside) await alongside(trx, approval);
    return approval;
  });
  if (!result) return undefined;
  if (result.published) {
    await deps.events.publish({ type: 'memoryUpdated', memory: result.memory });
  } else if (result.dismissedReports > 0) {
    await deps.events.publish({ type: 'reportsDismissed', memoryId: id });
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
  deps: Pick<AppDeps, 'db' | 'events'> & { media: Pick<MediaStore, 'delete'> },
  id: string,
  alongside?: (trx: Transaction<Database>, removed: StoredMemory) => Promise<void>,
): Promise<boolean> {
  const removed = await deps.db.transaction().execute(async (trx) => {
    const row = await deleteMemoryRow(trx, id);
    if (row && alongside) await alongside(trx, row);
    return row;
  });
  if (!removed) return false;
  await deps.events.publish({ type: 'memoryDeleted', id });
  await Promise.all(removed.mediaKeys.map((key) => deps.media.delete(key)));
  return true;
}

/**
 * An attendee deletes a memory they posted (decision 145): 404 when there is no such memory,
 * 403 when it is not theirs (posted by another attendee, or without a token). Then as the
 * admin's deletion: the row, every open gallery and viewer, the files.
 */
export async function deleteOwnMemory(
  deps: Pick<AppDeps, 'db' | 'media' | 'events'>,
  id: string,
  caller: Caller,
): Promise<void> {
  const found = await findMemory(deps.db, id);
  if (!found) throw notFound('memory');
  authorize(caller, 'delete memory', found);
  // The row is deleted only while it is still theirs; a deletion racing this one finds it gone.
  const deleted = await deleteMemory(deps, id, async (_trx, removed) => {
    authorize(caller, 'delete memory', removed);
  });
  if (!deleted) throw notFound('memory');
}

/** Memories read at a time when an attendee's are gone through. */
const OWNER_PAGE = 100;

/**
 * Deletes every memory attendee `ownerId` posted (decision 214), each the one way a memory is
 * deleted (`deleteMemory`: the row, every open gallery and viewer, then the files), with
 * `alongside` in each deletion's transaction. Answers how many were deleted.
 */
export async function deleteMemoriesOf(
  deps: Parameters<typeof deleteMemory>[0],
  ownerId: string,
  alongside: (trx: Transaction<Database>, removed: StoredMemory) => Promise<void>,
): Promise<number> {
  let deleted = 0;
  for (;;) {
    const ids = await listOwnMemoryIds(deps.db, ownerId, OWNER_PAGE);
    for (const id of ids) {
      if (await deleteMemory(deps, id, alongside)) deleted += 1;
    }
    if (ids.length < OWNER_PAGE) return deleted;
  }
}

/** Every memory attendee `ownerId` posted, whatever its status, oldest first (their export). */
export async function memoriesOf(deps: Pick<AppDeps, 'db'>, ownerId: string): Promise<Memory[]> {
  const memories: Memory[] = [];
  for (let after: string | undefined; ;) {
    const page = await listOwnMemories(deps.db, ownerId, { limit: 500, after });
    memories.push(...page);
    after = page.at(-1)?._id;
    if (page.length < 500) return memories;
  }
}
