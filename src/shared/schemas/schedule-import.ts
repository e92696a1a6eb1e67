import { z } from 'zod';

const count = z.number().int().min(0);

/**
 * POST /api/admin/schedule: what an import did. `rooms`: the schedule's rooms; sessions
 * `added`, `updated` (changed), `unchanged`, `cancelled` (gone from the schedule with questions
 * or polls on them) and `deleted` (gone, nothing on them); speakers `added` (new) and `matched`
 * (existing speakers the schedule's people were found to be).
 */
export const scheduleImportResultSchema = z.object({
  rooms: count,
  sessions: z.object({
    added: count,
    updated: count,
    unchanged: count,
    cancelled: count,
    deleted: count,
  }),
  speakers: z.object({ added: count, matched: count }),
});
export type ScheduleImportResult = z.infer<typeof scheduleImportResultSchema>;
