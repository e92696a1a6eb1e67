import { z } from 'zod';
import { idSchema, multiLineText } from './common.ts';
import { memorySchema } from './memory.ts';

/**
 * Why somebody asks for a memory to come down (decision 216): a short list of choices, each
 * with the words the report dialog shows, and free text beside it.
 */
export const REPORT_CATEGORIES = {
  notConsented: 'This is me and I did not agree',
  inappropriate: 'Inappropriate',
  other: 'Something else',
} as const;
export const reportCategorySchema = z.enum(
  Object.keys(REPORT_CATEGORIES) as [keyof typeof REPORT_CATEGORIES],
  { error: `category must be one of ${Object.keys(REPORT_CATEGORIES).join(', ')}` },
);
export type ReportCategory = z.infer<typeof reportCategorySchema>;

/** The longest reason a report takes, in characters. */
export const REPORT_REASON_MAX = 500;

/**
 * POST /api/memories/:id/report: `reason`, what the reporter says (1 to 500 characters; the app
 * sends the choice's words when nothing is typed), and the choice it belongs to (`other` when
 * none is given). Anything else is refused.
 */
export const reportRequestSchema = z
  .object({
    reason: multiLineText('reason', REPORT_REASON_MAX),
    category: reportCategorySchema.default('other'),
  })
  .strict();
export type ReportRequest = z.input<typeof reportRequestSchema>;

/** One report as the admin sees it: never who made it. */
export const reportSchema = z.object({
  _id: idSchema,
  category: reportCategorySchema,
  reason: z.string(),
  createdAt: z.iso.datetime(),
});
export type Report = z.infer<typeof reportSchema>;

/**
 * A reported memory in GET /api/admin/reports: the memory (`status: "pending"` while reports
 * keep it hidden), how many people reported it since the admin last kept it, and their reports,
 * newest first.
 */
export const reportedMemorySchema = z.object({
  memory: memorySchema,
  reporters: z.number().int(),
  lastReportedAt: z.iso.datetime(),
  reports: z.array(reportSchema),
});
export type ReportedMemory = z.infer<typeof reportedMemorySchema>;
export const reportedMemoriesSchema = z.array(reportedMemorySchema);

/** Socket `reportsChanged` (the admin's moderation room): a memory's open reports changed. */
export const reportsChangedEventSchema = z.object({ memoryId: idSchema });
