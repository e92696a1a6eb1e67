import { type Selectable, type Transaction, sql } from 'kysely';
import type { Memory, MemoryStatus } from '../../shared/schemas/memory.ts';
import type { Database, Db, MemoriesTable } from '../db/database.ts';
import { mediaUrl } from '../media/media-url.ts';

type Executor = Db | Transaction<Database>;

/** What the service stores for one memory. */
export interface NewMemory {
  id: string;
  postId: string;
  username: string;
  text: string;
  contentType: string;
  mediaKey: string;
  thumbnailKey: string | null;
  width: number | null;
  height: number | null;
  sizeBytes: number;
  createdAt: string;
  /** Whether the stored file is free of location and camera metadata (decision 095). */
  metadataStripped: boolean;
  /** `pending` while the admin has not approved it (decision 137). */
  status: MemoryStatus;
}

/** A stored memory with the keys of its files (for deletion). */
export interface StoredMemory {
  memory: Memory;
  mediaKeys: string[];
}

type MemoryRow = Selectable<MemoriesTable>;

const toMemory = (row: MemoryRow): Memory => ({
  _id: row.id,
  media: mediaUrl(row.media_key),
  thumbnail: row.thumbnail_key ? mediaUrl(row.thumbnail_key) : null,
  contentType: row.content_type,
  username: row.username,
  text: row.text,
  postId: row.post_id,
  createdAt: row.created_at,
  width: row.width,
  height: row.height,
  status: row.status === 'pending' ? 'pending' : 'published',
});

const keysOf = (row: MemoryRow): string[] =>
  row.thumbnail_key ? [row.media_key, row.thumbnail_key] : [row.media_key];

export async function insertMemories(db: Executor, memories: NewMemory[]): Promise<Memory[]> {
  if (memories.length === 0) return [];
  const rows: MemoryRow[] = memories.map((m) => ({
    id: m.id,
    post_id: m.postId,
    username: m.username,
    text: m.text,
    content_type: m.contentType,
    media_key: m.mediaKey,
    thumbnail_key: m.thumbnailKey,
    width: m.width,
    height: m.height,
    size_bytes: m.sizeBytes,
    created_at: m.createdAt,
    metadata_stripped: m.metadataStripped ? 1 : 0,
    status: m.status,
    revision: 0,
  }));
  await db.insertInto('memories').values(rows).execute();
  return rows.map(toMemory);
}

export interface ListMemoriesQuery {
  limit: number;
  /** Only memories older than this id (ids sort by creation time). */
  before?: string | undefined;
  /** Case-insensitive substring of the username or the caption. */
  search?: string | undefined;
  /** Only memories of this status; every status when undefined (the admin's lists). */
  status: MemoryStatus | undefined;
}

/** Newest first, paged by id. */
export async function listMemories(db: Executor, query: ListMemoriesQuery): Promise<Memory[]> {
  let q = db.selectFrom('memories').selectAll().orderBy('id', 'desc').limit(query.limit);
  if (query.before) q = q.where('id', '<', query.before);
  if (query.status) q = q.where('status', '=', query.status);
  const search = query.search?.trim().toLowerCase();
  if (search) {
    const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) =>
      eb.or([
        eb(sql`lower(username)`, 'like', sql`${pattern} escape '\\'`),
        eb(sql`lower(text)`, 'like', sql`${pattern} escape '\\'`),
      ]),
    );
  }
  const rows = await q.execute();
  return rows.map(toMemory);
}

export async function findMemory(db: Executor, id: string): Promise<StoredMemory | undefined> {
  const row = await db.selectFrom('memories').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? { memory: toMemory(row), mediaKeys: keysOf(row) } : undefined;
}

/**
 * Sets a memory's status and moves its revision; answers the memory as it is now, or undefined
 * when there is none. Setting the status it has changes nothing (and answers it as it is).
 */
export async function setMemoryStatus(
  db: Executor,
  id: string,
  status: MemoryStatus,
): Promise<{ memory: Memory; changed: boolean } | undefined> {
  const updated = await db
    .updateTable('memories')
    .set((eb) => ({ status, revision: eb('revision', '+', 1) }))
    .where('id', '=', id)
    .where('status', '<>', status)
    .returningAll()
    .executeTakeFirst();
  if (updated) return { memory: toMemory(updated), changed: true };
  const found = await findMemory(db, id);
  return found ? { memory: found.memory, changed: false } : undefined;
}

/**
 * One file of the archive of every published memory (`GET /api/admin/memories.zip`): where its
 * bytes are, their type, and what its name is made of. The one place that says which file of a
 * memory the archive carries.
 */
export interface ArchiveEntry {
  id: string;
  key: string;
  contentType: string;
  createdAt: string;
  username: string;
  text: string;
}

/** Published memories for the archive, oldest first, `limit` at a time after the id `after`. */
export async function listArchiveEntries(
  db: Executor,
  page: { after: string | undefined; limit: number },
): Promise<ArchiveEntry[]> {
  let q = db
    .selectFrom('memories')
    .select(['id', 'media_key', 'content_type', 'created_at', 'username', 'text'])
    .where('status', '=', 'published')
    .orderBy('id')
    .limit(page.limit);
  if (page.after) q = q.where('id', '>', page.after);
  const rows = await q.execute();
  return rows.map((row) => ({
    id: row.id,
    key: row.media_key,
    contentType: row.content_type,
    createdAt: row.created_at,
    username: row.username,
    text: row.text,
  }));
}

/** How many files the archive holds and their bytes: for the download's progress. */
export async function archiveSize(db: Executor): Promise<{ files: number; bytes: number }> {
  const row = await db
    .selectFrom('memories')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('files'),
      eb.fn.sum<number | string | null>('size_bytes').as('bytes'),
    ])
    .where('status', '=', 'published')
    .executeTakeFirstOrThrow();
  return { files: Number(row.files), bytes: Number(row.bytes ?? 0) };
}

/** Deletes one memory row; answers what it was (with its file keys), or undefined. */
export async function deleteMemoryRow(db: Executor, id: string): Promise<StoredMemory | undefined> {
  const row = await db
    .deleteFrom('memories')
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  return row ? { memory: toMemory(row), mediaKeys: keysOf(row) } : undefined;
}

/**
 * The newest id, the row count, and the number of memories whose file is free of metadata plus
 * the sum of the rows' revisions: enough to tell whether a list changed (ETag), including when
 * the start-up sweep replaced a video's file with its cleaned copy (decision 095) and when a
 * memory was approved (decision 137).
 */
export async function memoriesVersion(
  db: Executor,
): Promise<{ newestId: string | null; count: number; revision: number }> {
  const row = await db
    .selectFrom('memories')
    .select((eb) => [
      eb.fn.max<string | null>('id').as('newest'),
      eb.fn.countAll<number>().as('count'),
      // PostgreSQL answers sums as text.
      eb.fn.sum<number | string | null>('metadata_stripped').as('stripped'),
      eb.fn.sum<number | string | null>('revision').as('revisions'),
    ])
    .executeTakeFirstOrThrow();
  return {
    newestId: row.newest,
    count: row.count,
    revision: Number(row.stripped ?? 0) + Number(row.revisions ?? 0),
  };
}

/** A video memory whose stored file may still carry metadata (stored before decision 095). */
export interface UnstrippedVideo {
  id: string;
  mediaKey: string;
  contentType: string;
}

/** Video memories not yet cleaned of metadata, by id, `limit` at a time after `after`. */
export async function listUnstrippedVideos(
  db: Executor,
  query: { after: string | undefined; limit: number },
): Promise<UnstrippedVideo[]> {
  let q = db
    .selectFrom('memories')
    .select(['id', 'media_key', 'content_type'])
    .where('metadata_stripped', '=', 0)
    .where('content_type', 'like', 'video/%')
    .orderBy('id')
    .limit(query.limit);
  if (query.after) q = q.where('id', '>', query.after);
  const rows = await q.execute();
  return rows.map((row) => ({
    id: row.id,
    mediaKey: row.media_key,
    contentType: row.content_type,
  }));
}

/**
 * Marks a memory's file as free of metadata, pointing the row at `mediaKey` (the cleaned copy,
 * or the same key when there was nothing to clean), only while the row still names `previousKey`.
 * Answers false when the row is gone or was changed meanwhile.
 */
export async function markMetadataStripped(
  db: Executor,
  change: { id: string; previousKey: string; mediaKey: string; sizeBytes: number },
): Promise<boolean> {
  const result = await db
    .updateTable('memories')
    .set({ media_key: change.mediaKey, size_bytes: change.sizeBytes, metadata_stripped: 1 })
    .where('id', '=', change.id)
    .where('media_key', '=', change.previousKey)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
