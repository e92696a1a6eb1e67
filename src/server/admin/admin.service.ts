import type { AdminAuditEntry, AdminMediaQuery } from '../../shared/schemas/admin.ts';
import type { Memory } from '../../shared/schemas/memory.ts';
import type { AppDeps } from '../deps.ts';
import { versionTag } from '../http/conditional-get.ts';
import { newId } from '../lib/ids.ts';
import { listMemories, memoriesVersion } from '../memories/memory.repository.ts';
import { deleteMemory } from '../memories/memory.service.ts';
import { insertAuditEntry, listAuditEntries } from './admin.repository.ts';

/** Who is acting: the admin of the token and the address the request came from. */
export interface Actor {
  username: string;
  ip: string;
}

const normaliseSearch = (search: string | undefined): string => search?.trim().toLowerCase() ?? '';

/**
 * The ETag of one page of the moderation list. Ids grow with time, so the newest id and the count
 * change whenever a memory is added or deleted; the revision, when the start-up sweep points one
 * at its cleaned file (decision 095), the only edit a memory sees.
 */
export async function moderationListEtag(
  db: AppDeps['db'],
  query: AdminMediaQuery,
): Promise<string> {
  const version = await memoriesVersion(db);
  return versionTag([
    'moderation',
    version.newestId,
    version.count,
    version.revision,
    query.limit,
    query.before,
    normaliseSearch(query.search),
  ]);
}

/** Memories for moderation, newest first, optionally matching a search. */
export function listForModeration(db: AppDeps['db'], query: AdminMediaQuery): Promise<Memory[]> {
  const search = normaliseSearch(query.search);
  return listMemories(db, {
    limit: query.limit,
    before: query.before,
    search: search || undefined,
  });
}

/**
 * Deletes a memory and its files as the admin, writing who deleted what and when in the same
 * transaction: a deletion that cannot be logged does not happen, and a deletion that finds
 * nothing leaves no log row.
 */
export async function deleteMemoryAsAdmin(
  deps: Pick<AppDeps, 'db' | 'media' | 'realtime' | 'clock' | 'memoryListVersion'>,
  id: string,
  actor: Actor,
): Promise<'deleted' | 'not-found'> {
  const deleted = await deleteMemory(deps, id, async (trx, { memory, mediaKeys }) => {
    await insertAuditEntry(trx, {
      id: newId(),
      adminUsername: actor.username,
      action: 'memory.delete',
      targetId: id,
      details: {
        memory: {
          username: memory.username,
          text: memory.text,
          contentType: memory.contentType,
          createdAt: memory.createdAt,
        },
        mediaKeys,
        ip: actor.ip,
      },
      createdAt: deps.clock.now().toISOString(),
    });
  });
  return deleted ? 'deleted' : 'not-found';
}

/** The moderation log, newest first. */
export function recentDeletions(
  db: AppDeps['db'],
  query: { limit: number; before?: string | undefined },
): Promise<AdminAuditEntry[]> {
  return listAuditEntries(db, query);
}
