import { z } from 'zod';
import type { AdminAuditEntry } from '../../shared/schemas/admin.ts';
import type { AdminAuditTable } from '../db/database.ts';
import { type Executor, type PageBefore, newestFirst, rowsWritten } from '../db/queries.ts';

/** What the moderation log keeps about a deleted memory. */
export interface DeletedMemoryDetails {
  memory: { username: string; text: string; contentType: string; createdAt: string };
  /** The files that went with it, and the address the admin acted from. */
  mediaKeys: string[];
  ip: string;
}

/** What the moderation log keeps about an approved (or kept) memory. */
export interface ApprovedMemoryDetails {
  memory: { username: string; text: string; contentType: string; createdAt: string };
  ip: string;
  /** The open reports on it that were dismissed (decision 216). */
  dismissedReports: number;
}

/** What the log keeps of a purge of the event's data (decision 218): counts, no one's data. */
export interface PurgeDetails {
  removed: Record<string, number>;
  /** The admin's address, or null for the retention sweep. */
  ip: string | null;
}

export type NewAuditEntry = {
  id: string;
  adminUsername: string;
  targetId: string;
  createdAt: string;
} & (
  | { action: 'memory.delete'; details: DeletedMemoryDetails }
  | { action: 'memory.approve' | 'memory.keep'; details: ApprovedMemoryDetails }
  | { action: 'event.purge'; details: PurgeDetails }
);

const storedDetailsSchema = z.object({
  memory: z.object({
    username: z.string(),
    text: z.string(),
    contentType: z.string(),
    createdAt: z.string(),
  }),
});

const toEntry = (row: AdminAuditTable): AdminAuditEntry => {
  let details: unknown;
  try {
    details = JSON.parse(row.details);
  } catch {
    details = undefined;
  }
  const parsed = storedDetailsSchema.safeParse(details);
  return {
    _id: row.id,
    adminUsername: row.admin_username,
    action: 'memory.delete',
    targetId: row.target_id,
    memory: parsed.success
      ? parsed.data.memory
      : { username: '', text: '', contentType: '', createdAt: '' },
    createdAt: row.created_at,
  };
};

export async function insertAuditEntry(db: Executor, entry: NewAuditEntry): Promise<void> {
  await db
    .insertInto('admin_audit')
    .values({
      id: entry.id,
      admin_username: entry.adminUsername,
      action: entry.action,
      target_id: entry.targetId,
      details: JSON.stringify(entry.details),
      created_at: entry.createdAt,
    })
    .execute();
}

/** Deletions, newest first, paged by id (ids sort by creation time). */
export async function listAuditEntries(
  db: Executor,
  query: PageBefore,
): Promise<AdminAuditEntry[]> {
  const rows = await db
    .selectFrom('admin_audit')
    .selectAll()
    .where('action', '=', 'memory.delete')
    .$call(newestFirst(query))
    .execute();
  return rows.map(toEntry);
}

/**
 * Removes the log's entries about attendees' memories (a purge, decision 218): they quote the
 * attendee's name and caption. Answers how many went.
 */
export function deleteMemoryAuditEntries(db: Executor): Promise<number> {
  return rowsWritten(
    db
      .deleteFrom('admin_audit')
      .where('action', 'in', ['memory.delete', 'memory.approve', 'memory.keep']),
  );
}
