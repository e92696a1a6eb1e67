import type { AdminAuditEntry, AdminMediaQuery } from '../../shared/schemas/admin.ts';
import type { Memory } from '../../shared/schemas/memory.ts';
import type { AppDeps } from '../deps.ts';
import { newId } from '../lib/ids.ts';
import { attendeeCount } from '../attendees/attendee.repository.ts';
import { listMemories, memoriesVersion } from '../memories/memory.repository.ts';
import { questionCounts } from '../questions/question.repository.ts';
import { speakerCount } from '../speakers/speaker.repository.ts';
import { approveMemory, deleteMemory } from '../memories/memory.service.ts';
import { insertAuditEntry, listAuditEntries } from './admin.repository.ts';

/** Who is acting: the admin of the token and the address the request came from. */
export interface Actor {
  username: string;
  ip: string;
}

const normaliseSearch = (search: string | undefined): string => search?.trim().toLowerCase() ?? '';

/** The name of one moderation page's answer: the same page and search share it. */
export const moderationView = (query: AdminMediaQuery): string =>
  JSON.stringify([
    'moderation',
    query.limit,
    query.before ?? null,
    normaliseSearch(query.search),
    query.status ?? null,
  ]);

/** Memories for moderation, newest first, optionally matching a search. */
export function listForModeration(db: AppDeps['db'], query: AdminMediaQuery): Promise<Memory[]> {
  const search = normaliseSearch(query.search);
  return listMemories(db, {
    limit: query.limit,
    before: query.before,
    search: search || undefined,
    status: query.status,
  });
}

/**
 * Approves a pending memory as the admin: published everywhere at once, and the moderation log
 * says who approved what and when (in the same transaction). Approving a published memory is
 * harmless and logs nothing.
 */
export async function approveMemoryAsAdmin(
  deps: Pick<AppDeps, 'db' | 'realtime' | 'clock' | 'lists'>,
  id: string,
  actor: Actor,
): Promise<Memory | undefined> {
  return approveMemory(deps, id, async (trx, memory) => {
    await insertAuditEntry(trx, {
      id: newId(),
      adminUsername: actor.username,
      action: 'memory.approve',
      targetId: id,
      details: {
        memory: {
          username: memory.username,
          text: memory.text,
          contentType: memory.contentType,
          createdAt: memory.createdAt,
        },
        ip: actor.ip,
      },
      createdAt: deps.clock.now().toISOString(),
    });
  });
}

/**
 * Deletes a memory and its files as the admin, writing who deleted what and when in the same
 * transaction: a deletion that cannot be logged does not happen, and a deletion that finds
 * nothing leaves no log row.
 */
export async function deleteMemoryAsAdmin(
  deps: Pick<AppDeps, 'db' | 'media' | 'realtime' | 'clock' | 'lists'>,
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

/** The admin's overview: how much there is of everything. */
export async function adminStats(deps: Pick<AppDeps, 'db'>): Promise<{
  memories: number;
  questions: number;
  pendingQuestions: number;
  speakers: number;
  attendees: number;
  votes: number;
}> {
  const [memories, questions, speakers, attendees] = await Promise.all([
    memoriesVersion(deps.db),
    questionCounts(deps.db),
    speakerCount(deps.db),
    attendeeCount(deps.db),
  ]);
  return {
    memories: memories.count,
    questions: questions.questions,
    pendingQuestions: questions.pending,
    speakers,
    attendees,
    votes: questions.votes,
  };
}
