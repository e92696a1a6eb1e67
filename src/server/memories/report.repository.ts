import type { Report, ReportCategory } from '../../shared/schemas/report.ts';
import type { MemoryReportsTable } from '../db/database.ts';
import { type Executor, rowsWritten, wroteAny } from '../db/queries.ts';

/** A report as the service stores it. */
export interface NewReport {
  id: string;
  memoryId: string;
  /** Who reported, as counted (decision 216): `attendee:<id>` or `address:<salted hash>`. */
  reporter: string;
  category: ReportCategory;
  reason: string;
  createdAt: string;
}

const toReport = (row: MemoryReportsTable): Report => ({
  _id: row.id,
  category: row.category as ReportCategory,
  reason: row.reason,
  createdAt: row.created_at,
});

/**
 * Stores a report unless its reporter reported this memory already (open or dismissed): answers
 * whether it was stored, so a second report of the same person counts nothing.
 */
export function insertReport(db: Executor, report: NewReport): Promise<boolean> {
  return wroteAny(
    db
      .insertInto('memory_reports')
      .values({
        id: report.id,
        memory_id: report.memoryId,
        reporter: report.reporter,
        category: report.category,
        reason: report.reason,
        created_at: report.createdAt,
        dismissed_at: null,
      })
      .onConflict((oc) => oc.columns(['memory_id', 'reporter']).doNothing()),
  );
}

/** The reports one reporter made, `limit` after the report `after`, oldest first. */
export async function reportsBy(
  db: Executor,
  reporter: string,
  page: { limit: number; after?: string | undefined },
): Promise<MemoryReportsTable[]> {
  let q = db
    .selectFrom('memory_reports')
    .selectAll()
    .where('reporter', '=', reporter)
    .orderBy('id')
    .limit(page.limit);
  if (page.after !== undefined) q = q.where('id', '>', page.after);
  return q.execute();
}

/** Deletes one report; answers it as it was, or undefined when it was gone already. */
export async function deleteReport(
  db: Executor,
  id: string,
): Promise<MemoryReportsTable | undefined> {
  return db.deleteFrom('memory_reports').where('id', '=', id).returningAll().executeTakeFirst();
}

/** Dismisses a memory's open reports (the admin kept it); answers how many there were. */
export function dismissReports(db: Executor, memoryId: string, at: string): Promise<number> {
  return rowsWritten(
    db
      .updateTable('memory_reports')
      .set({ dismissed_at: at })
      .where('memory_id', '=', memoryId)
      .where('dismissed_at', 'is', null),
  );
}

/** The memories with open reports, the most recently reported first, at most `limit`. */
export async function listReportedMemoryIds(
  db: Executor,
  limit: number,
): Promise<{ memoryId: string; lastReportedAt: string }[]> {
  const rows = await db
    .selectFrom('memory_reports')
    .select((eb) => [
      'memory_id',
      eb.fn.max<string>('id').as('newest'),
      eb.fn.max<string>('created_at').as('last'),
    ])
    .where('dismissed_at', 'is', null)
    .groupBy('memory_id')
    .orderBy('newest', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ memoryId: row.memory_id, lastReportedAt: row.last }));
}

/** The open reports of these memories, newest first, by memory. */
export async function listOpenReports(
  db: Executor,
  memoryIds: readonly string[],
): Promise<Map<string, Report[]>> {
  const byMemory = new Map<string, Report[]>();
  if (memoryIds.length === 0) return byMemory;
  const rows = await db
    .selectFrom('memory_reports')
    .selectAll()
    .where('memory_id', 'in', memoryIds)
    .where('dismissed_at', 'is', null)
    .orderBy('id', 'desc')
    .execute();
  for (const row of rows) {
    byMemory.set(row.memory_id, [...(byMemory.get(row.memory_id) ?? []), toReport(row)]);
  }
  return byMemory;
}

/**
 * What tells whether the reports' list changed: the newest report, the open ones, and the
 * dismissed ones (a keep moves that).
 */
export async function reportsVersion(
  db: Executor,
): Promise<{ newestId: string | null; count: number; revision: number }> {
  const row = await db
    .selectFrom('memory_reports')
    .select((eb) => [
      eb.fn.max<string | null>('id').as('newest'),
      eb.fn.countAll<number | string>().as('count'),
      eb.fn.count<number | string>('dismissed_at').as('dismissed'),
    ])
    .executeTakeFirstOrThrow();
  return {
    newestId: row.newest,
    count: Number(row.count),
    revision: Number(row.dismissed),
  };
}

/** Forgets every report (a purge, decision 218: reports name their reporters); answers how many. */
export function deleteAllReports(db: Executor): Promise<number> {
  return rowsWritten(db.deleteFrom('memory_reports'));
}
