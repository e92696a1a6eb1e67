import { createHash, randomBytes } from 'node:crypto';
import type { Memory } from '../../shared/schemas/memory.ts';
import type { ExportedReport } from '../../shared/schemas/privacy.ts';
import type { ReportCategory, ReportedMemory } from '../../shared/schemas/report.ts';
import type { Caller } from '../auth/callers.ts';
import type { AppDeps } from '../deps.ts';
import { notFound } from '../http/errors.ts';
import { newId } from '../lib/ids.ts';
import { WHOLE_LIST } from '../lists/list-cache.ts';
import type { ListView } from '../lists/list-route.ts';
import { settingOnce } from '../settings/settings.repository.ts';
import {
  countOpenReport,
  findMemories,
  findMemory,
  setMemoryStatus,
  uncountOpenReport,
} from './memory.repository.ts';
import { visibleMemory } from './memory.service.ts';
import {
  deleteReport,
  insertReport,
  listOpenReports,
  listReportedMemoryIds,
  reportsBy,
} from './report.repository.ts';

/** The salt of anonymous reporters' address hashes: made once, kept in the settings table. */
const REPORT_SALT_KEY = 'report-salt';
/** The reported memories the admin's list holds at most. */
const REPORTED_MEMORIES_MAX = 200;
/** How an attendee's reports are keyed (decision 216). */
const attendeeReporter = (attendeeId: string) => `attendee:${attendeeId}`;
/** The reports shown per memory at most (newest first); `reporters` counts them all. */
const REPORTS_PER_MEMORY_MAX = 50;

/**
 * Who a report is counted as (decision 216): an attendee by their id; anybody without a token by
 * their address (an IPv6 address by its /64), stored only as a salted hash.
 */
async function reporterOf(
  deps: Pick<AppDeps, 'db'>,
  caller: Caller,
  address: string,
): Promise<string> {
  if (caller.kind === 'attendee') return attendeeReporter(caller.id);
  const salt = await settingOnce(deps.db, REPORT_SALT_KEY, randomBytes(32).toString('base64url'));
  const hash = createHash('sha256').update(`${salt}\u0000${address}`).digest('base64url');
  return `address:${hash.slice(0, 32)}`;
}

/** A report as the route hands it over. */
export interface ReportInput {
  category: ReportCategory;
  reason: string;
}

/**
 * Somebody asks for a memory to come down (decision 216). 404 for a memory the caller cannot
 * see. The same person's second report of a memory changes nothing. Once the memory's open
 * reports come from `reportsToHide` people (0: never), it is hidden as one awaiting approval,
 * until the admin keeps (approves) or deletes it. One `memoryReported` after the commit.
 */
export async function reportMemory(
  deps: Pick<AppDeps, 'db' | 'events' | 'clock' | 'settings'>,
  id: string,
  caller: Caller,
  address: string,
  input: ReportInput,
): Promise<void> {
  await visibleMemory(deps, id, caller);
  const reporter = await reporterOf(deps, caller, address);
  let result: { reporters: number; hidden: Memory | null } | undefined;
  try {
    result = await deps.db.transaction().execute(async (trx) => {
      const stored = await insertReport(trx, {
        id: newId(),
        memoryId: id,
        reporter,
        category: input.category,
        reason: input.reason,
        createdAt: deps.clock.now().toISOString(),
      });
      if (!stored) return undefined;
      const counted = await countOpenReport(trx, id);
      if (!counted) return undefined;
      const threshold = deps.settings.current.reportsToHide;
      let hidden: Memory | null = null;
      if (threshold > 0 && counted.openReports >= threshold) {
        const set = await setMemoryStatus(trx, id, 'pending');
        if (set?.changed) hidden = set.memory;
      }
      return { reporters: counted.openReports, hidden };
    });
  } catch (error) {
    // Deleted while the report was being stored: its reference no longer holds.
    if (!(await findMemory(deps.db, id))) throw notFound('memory');
    throw error;
  }
  if (!result) return;
  await deps.events.publish({ type: 'memoryReported', memoryId: id, ...result });
}

/** The reports an erasure removes at a time. */
const ERASURE_PAGE = 100;

/**
 * Removes every report attendee `attendeeId` made (their erasure, decision 214), dismissed ones
 * too: each in its own transaction with its memory's open count, which goes down by an open one.
 * A memory their report helped hide stays hidden until the admin decides (decision 228). The
 * admin's list hears each (`reportWithdrawn`). Answers how many went.
 */
export async function withdrawReportsOf(
  deps: Pick<AppDeps, 'db' | 'events'>,
  attendeeId: string,
): Promise<number> {
  let removed = 0;
  for (;;) {
    const page = await reportsBy(deps.db, attendeeReporter(attendeeId), { limit: ERASURE_PAGE });
    for (const { id } of page) {
      const result = await deps.db.transaction().execute(async (trx) => {
        const report = await deleteReport(trx, id);
        if (!report) return undefined;
        const reporters =
          report.dismissed_at === null ? await uncountOpenReport(trx, report.memory_id) : undefined;
        return { memoryId: report.memory_id, reporters };
      });
      if (!result) continue;
      removed += 1;
      // A dismissed report was in no list and no count.
      if (result.reporters === undefined) continue;
      await deps.events.publish({
        type: 'reportWithdrawn',
        memoryId: result.memoryId,
        reporters: result.reporters,
      });
    }
    if (page.length < ERASURE_PAGE) return removed;
  }
}

/**
 * The reports attendee `attendeeId` made with their token, for their export (decision 215): the
 * memory, the category and their reason, and when; oldest first. A report goes with its memory.
 */
export async function reportsOf(
  deps: Pick<AppDeps, 'db'>,
  attendeeId: string,
): Promise<ExportedReport[]> {
  const reports: ExportedReport[] = [];
  for (let after: string | undefined; ;) {
    const page = await reportsBy(deps.db, attendeeReporter(attendeeId), { limit: 500, after });
    for (const row of page) {
      reports.push({
        memoryId: row.memory_id,
        category: row.category as ReportCategory,
        reason: row.reason,
        reportedAt: row.created_at,
      });
    }
    after = page.at(-1)?.id;
    if (page.length < 500) return reports;
  }
}

/** The memories with open reports, most recently reported first, each with its reports. */
export async function reportedMemories(deps: Pick<AppDeps, 'db'>): Promise<ReportedMemory[]> {
  const reported = await listReportedMemoryIds(deps.db, REPORTED_MEMORIES_MAX);
  const ids = reported.map((entry) => entry.memoryId);
  const [memories, reports] = await Promise.all([
    findMemories(deps.db, ids),
    listOpenReports(deps.db, ids),
  ]);
  const byId = new Map(memories.map((memory) => [memory._id, memory]));
  return reported.flatMap(({ memoryId, lastReportedAt }) => {
    const memory = byId.get(memoryId);
    const open = reports.get(memoryId) ?? [];
    if (!memory || open.length === 0) return [];
    return [
      {
        memory,
        reporters: open.length,
        lastReportedAt,
        reports: open.slice(0, REPORTS_PER_MEMORY_MAX),
      },
    ];
  });
}

/** The admin's list of reported memories, polled (ETag / 304) like the moderation lists. */
export const reportsView = (deps: Pick<AppDeps, 'db'>): ListView => ({
  topic: 'reports',
  scope: WHOLE_LIST,
  key: 'reports',
  rows: () => reportedMemories(deps),
});
