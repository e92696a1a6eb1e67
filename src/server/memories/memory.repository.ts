import { type SelectQueryBuilder, type Selectable, sql } from 'kysely';
import type { Memory, MemoryStatus } from '../../shared/schemas/memory.ts';
import type { Database, MemoriesTable } from '../db/database.ts';
import {
  type Executor,
  type PageAfter,
  type PageBefore,
  findById,
  idsOf,
  newestFirst,
  oldestFirst,
  rowsWritten,
  wroteAny,
} from '../db/queries.ts';
import { mediaUrl } from '../media/media-url.ts';

/** What the service stores for one memory. */
export interface NewMemory {
  id: string;
  postId: string;
  username: string;
  text: string;
  contentType: string;
  mediaKey: string;
  thumbnailKey: string | null;
  /** The full-resolution master "Download" and the ZIP serve (may be `mediaKey`). */
  originalKey: string;
  width: number | null;
  height: number | null;
  sizeBytes: number;
  createdAt: string;
  /** Whether the stored file is free of location and camera metadata (decision 095). */
  metadataStripped: boolean;
  /** `pending` while the admin has not approved it (decision 137). */
  status: MemoryStatus;
  /** The attendee who posted it (their token's id), or null when no token came with the post. */
  ownerId?: string | null;
  /** A video's poster (JPEG). */
  posterKey?: string | null;
  /** Whether a video's playable rendition is still to be made (decision 154). */
  processing?: boolean;
}

/** A stored memory with the keys of its files (for deletion). */
export interface StoredMemory {
  memory: Memory;
  mediaKeys: string[];
  /** The attendee who posted it, or null (decision 142). Never part of the public Memory. */
  ownerId: string | null;
}

type MemoryRow = Selectable<MemoriesTable>;

const toMemory = (row: MemoryRow): Memory => ({
  _id: row.id,
  media: mediaUrl(row.media_key),
  thumbnail: row.thumbnail_key ? mediaUrl(row.thumbnail_key) : null,
  original: mediaUrl(row.original_key ?? row.media_key),
  contentType: row.content_type,
  username: row.username,
  text: row.text,
  postId: row.post_id,
  createdAt: row.created_at,
  width: row.width,
  height: row.height,
  status: row.status === 'pending' ? 'pending' : 'published',
  poster: row.poster_key ? mediaUrl(row.poster_key) : null,
  processing: row.processing === 1,
});

/** Every file of a memory, each once (a video's original is its media until it is rendered). */
const keysOf = (row: MemoryRow): string[] => [
  ...new Set(
    [row.media_key, row.thumbnail_key, row.poster_key, row.original_key].filter(
      (key): key is string => key !== null,
    ),
  ),
];

const toStored = (row: MemoryRow): StoredMemory => ({
  memory: toMemory(row),
  mediaKeys: keysOf(row),
  ownerId: row.owner_id,
});

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
    owner_id: m.ownerId ?? null,
    original_key: m.originalKey,
    poster_key: m.posterKey ?? null,
    processing: m.processing ? 1 : 0,
    render_owner: null,
    render_lease_until: null,
    open_reports: 0,
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
  let q = db.selectFrom('memories').selectAll().$call(newestFirst(query));
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

/**
 * One page of the gallery, newest first, that never ends inside a post (decision 143): when the
 * `limit`-th memory's post goes on past it, the rest of that post comes too (a post has at most
 * MAX_FILES_PER_POST files, so a page is at most that many longer). The next page starts
 * `before` the last id of this one, so no post is split or answered twice.
 */
export async function listGalleryPage(db: Executor, query: PageBefore): Promise<Memory[]> {
  const published = db.selectFrom('memories').selectAll().where('status', '=', 'published');
  const rows = await published.$call(newestFirst(query)).execute();
  const last = rows.at(-1);
  if (!last || rows.length < query.limit) return rows.map(toMemory);
  const rest = await published
    .where('post_id', '=', last.post_id)
    .where('id', '<', last.id)
    .orderBy('id', 'desc')
    .execute();
  return [...rows, ...rest].map(toMemory);
}

/** The oldest id of a post's memories (its last file so far), or undefined when it has none. */
export async function oldestIdOfPost(db: Executor, postId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('memories')
    .select((eb) => eb.fn.min<string>('id').as('oldest'))
    .where('post_id', '=', postId)
    .executeTakeFirst();
  return row?.oldest ?? undefined;
}

/** The ids of one attendee's memories, newest first (at most `limit`). */
export function listOwnMemoryIds(db: Executor, ownerId: string, limit: number): Promise<string[]> {
  return idsOf(
    db
      .selectFrom('memories')
      .select('id')
      .where('owner_id', '=', ownerId)
      .$call(newestFirst({ limit })),
  );
}

/** One attendee's memories, whatever their status, oldest first, a page after `after`. */
export async function listOwnMemories(
  db: Executor,
  ownerId: string,
  page: PageAfter,
): Promise<Memory[]> {
  const rows = await db
    .selectFrom('memories')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .$call(oldestFirst(page))
    .execute();
  return rows.map(toMemory);
}

export function findMemory(db: Executor, id: string): Promise<StoredMemory | undefined> {
  return findById(db, 'memories', id, toStored);
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

/**
 * Which memories an archive holds: every published one (the admin's download of them all), or
 * those one attendee posted, whatever their status (their own download, decision 215).
 */
export type ArchiveScope = { published: true } | { ownerId: string };

const inArchive =
  (scope: ArchiveScope) =>
  <O>(query: SelectQueryBuilder<Database, 'memories', O>) =>
    'ownerId' in scope
      ? query.where('owner_id', '=', scope.ownerId)
      : query.where('status', '=', 'published');

/** A page of the archive: its entries, and the id the next page starts after. */
export interface ArchivePage {
  entries: ArchiveEntry[];
  /** The newest id of the page (undefined when it is empty). */
  last: string | undefined;
}

/**
 * The memories of an archive (`scope`: every published one, or one attendee's), posts oldest first, each post's files in the order they
 * were picked (its first file has its newest id, decision 200), `limit` at a time after the id
 * `after`. As the gallery's pages, a page never ends inside a post: the rest of the post whose
 * file is the `limit`-th comes too, and the next page starts after the page's newest id.
 */
export async function listArchiveEntries(
  db: Executor,
  page: PageAfter,
  scope: ArchiveScope = { published: true },
): Promise<ArchivePage> {
  const published = db
    .selectFrom('memories')
    .select([
      'id',
      'post_id',
      'media_key',
      'original_key',
      'content_type',
      'created_at',
      'username',
      'text',
    ])
    .$call(inArchive(scope));
  const rows = await published.$call(oldestFirst(page)).execute();
  const lastRow = rows.at(-1);
  if (lastRow && rows.length >= page.limit) {
    rows.push(
      ...(await published
        .where('post_id', '=', lastRow.post_id)
        .where('id', '>', lastRow.id)
        .orderBy('id')
        .execute()),
    );
  }
  const posts = new Map<string, typeof rows>();
  for (const row of rows) posts.set(row.post_id, [row, ...(posts.get(row.post_id) ?? [])]);
  const entries = [...posts.values()].flat().map((row) => ({
    id: row.id,
    // The full-resolution master (decision 149), never the file as sent.
    key: row.original_key ?? row.media_key,
    contentType: row.content_type,
    createdAt: row.created_at,
    username: row.username,
    text: row.text,
  }));
  return { entries, last: rows.at(-1)?.id };
}

/** How many files the archive holds and their bytes: for the download's progress. */
export async function archiveSize(
  db: Executor,
  scope: ArchiveScope = { published: true },
): Promise<{ files: number; bytes: number }> {
  const row = await db
    .selectFrom('memories')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('files'),
      eb.fn.sum<number | string | null>('size_bytes').as('bytes'),
    ])
    .$call(inArchive(scope))
    .executeTakeFirstOrThrow();
  return { files: Number(row.files), bytes: Number(row.bytes ?? 0) };
}

/** Up to `limit` memories with the keys of their files, oldest first (a purge's next batch). */
export async function listStoredMemories(db: Executor, limit: number): Promise<StoredMemory[]> {
  const rows = await db.selectFrom('memories').selectAll().orderBy('id').limit(limit).execute();
  return rows.map(toStored);
}

/** Deletes these memory rows; answers how many there were. */
export function deleteMemoryRows(db: Executor, ids: string[]): Promise<number> {
  if (ids.length === 0) return Promise.resolve(0);
  return rowsWritten(db.deleteFrom('memories').where('id', 'in', ids));
}

/** Deletes one memory row; answers what it was (with its file keys), or undefined. */
export async function deleteMemoryRow(db: Executor, id: string): Promise<StoredMemory | undefined> {
  const row = await db
    .deleteFrom('memories')
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  return row ? toStored(row) : undefined;
}

/**
 * The newest id, the row count, the number of memories whose file is free of metadata, the sum
 * of the rows' revisions and the number of those not processing: enough to tell whether a list
 * changed (ETag), including when the start-up sweep replaced a video's file with its cleaned copy
 * (decision 095), a memory was approved (decision 137) or a video's rendition replaced its file
 * (decision 154).
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
      eb.fn.sum<number | string | null>('processing').as('processing'),
    ])
    .executeTakeFirstOrThrow();
  const done = row.count - Number(row.processing ?? 0);
  return {
    newestId: row.newest,
    count: row.count,
    revision: Number(row.stripped ?? 0) + Number(row.revisions ?? 0) + done,
  };
}

/** Memories per hour (UTC), oldest first; hours without any are left out. */
export async function memoriesPerHour(db: Executor): Promise<{ hour: string; memories: number }[]> {
  // created_at is an ISO 8601 text in both dialects: its first 13 characters name the hour.
  const hour = sql<string>`substr(created_at, 1, 13)`;
  const rows = await db
    .selectFrom('memories')
    .select((eb) => [hour.as('hour'), eb.fn.countAll<number | string>().as('count')])
    .groupBy(hour)
    .orderBy(hour)
    .execute();
  return rows.map((row) => ({ hour: `${row.hour}:00:00.000Z`, memories: Number(row.count) }));
}

/** A video memory whose stored file may still carry metadata (stored before decision 095). */
export interface UnstrippedVideo {
  id: string;
  mediaKey: string;
  contentType: string;
}

/** Video memories not yet cleaned of metadata, by id, `limit` at a time after `after`. */
export function listUnstrippedVideos(db: Executor, page: PageAfter): Promise<UnstrippedVideo[]> {
  return db
    .selectFrom('memories')
    .select(['id', 'media_key as mediaKey', 'content_type as contentType'])
    .where('metadata_stripped', '=', 0)
    .where('content_type', 'like', 'video/%')
    .$call(oldestFirst(page))
    .execute();
}

/**
 * Marks a memory's file as free of metadata, pointing the row at `mediaKey` (the cleaned copy,
 * or the same key when there was nothing to clean), only while the row still names `previousKey`.
 * Answers false when the row is gone or was changed meanwhile.
 */
export function markMetadataStripped(
  db: Executor,
  change: { id: string; previousKey: string; mediaKey: string; sizeBytes: number },
): Promise<boolean> {
  return wroteAny(
    db
      .updateTable('memories')
      .set((eb) => ({
        media_key: change.mediaKey,
        size_bytes: change.sizeBytes,
        metadata_stripped: 1,
        // The cleaned copy is the video's original too (decision 154).
        original_key: eb
          .case()
          .when('original_key', '=', change.previousKey)
          .then(change.mediaKey)
          .else(eb.ref('original_key'))
          .end(),
      }))
      .where('id', '=', change.id)
      .where('media_key', '=', change.previousKey),
  );
}

/** The memories with these ids, in no particular order (those that exist). */
export async function findMemories(db: Executor, ids: readonly string[]): Promise<Memory[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('memories').selectAll().where('id', 'in', ids).execute();
  return rows.map(toMemory);
}

/**
 * Counts one more person's open report on a memory (decision 216): the row is locked until the
 * transaction ends, so reports arriving together count one after the other. Answers the memory
 * and its open reports after, or undefined when there is no such memory.
 */
export async function countOpenReport(
  db: Executor,
  id: string,
): Promise<{ memory: Memory; openReports: number } | undefined> {
  const row = await db
    .updateTable('memories')
    .set((eb) => ({ open_reports: eb('open_reports', '+', 1) }))
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  return row && { memory: toMemory(row), openReports: row.open_reports };
}

/** One report fewer is open on a memory (its reporter was erased); answers how many are left. */
export async function uncountOpenReport(db: Executor, id: string): Promise<number | undefined> {
  const row = await db
    .updateTable('memories')
    .set((eb) => ({
      open_reports: sql<number>`case when ${eb.ref('open_reports')} > 0 then ${eb.ref('open_reports')} - 1 else 0 end`,
    }))
    .where('id', '=', id)
    .returning('open_reports')
    .executeTakeFirst();
  return row?.open_reports;
}

/** Sets a memory's open reports back to none (the admin kept it). */
export async function clearOpenReports(db: Executor, id: string): Promise<void> {
  await db.updateTable('memories').set({ open_reports: 0 }).where('id', '=', id).execute();
}
