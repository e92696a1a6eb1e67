import { z } from 'zod';
import { memorySchema } from './memory.ts';
import { POLL_TYPES } from './poll.ts';
import { questionSchema } from './question.ts';
import { reportCategorySchema } from './report.ts';

/**
 * DELETE /api/attendees/me: what the erasure removed (decision 214). `files`: the stored files
 * deleted (each memory's renditions, poster and master, and unfinished uploads); `pollAnswers`:
 * the poll answers taken back. The reports they made go too, uncounted.
 */
export const erasureResponseSchema = z.object({
  removed: z.object({
    memories: z.number().int().min(0),
    questions: z.number().int().min(0),
    votes: z.number().int().min(0),
    pollAnswers: z.number().int().min(0),
    files: z.number().int().min(0),
  }),
});
export type ErasureResponse = z.infer<typeof erasureResponseSchema>;
export type Removed = ErasureResponse['removed'];

/** One vote an attendee gave: the question it went to, and when. */
export const exportedVoteSchema = z.object({
  questionId: z.string(),
  question: z.string(),
  speakerName: z.string(),
  votedAt: z.string(),
});

/**
 * One poll answer an attendee gave: the poll's title and type, their answer in words (the
 * options' texts chosen or ranked, in their order; a rating; their text; a word cloud's words as
 * counted), a closed quiz's points, and when.
 */
export const exportedPollAnswerSchema = z.object({
  pollId: z.string(),
  title: z.string(),
  type: z.enum(POLL_TYPES),
  answer: z.union([
    z.object({ options: z.array(z.string()) }),
    z.object({ ranking: z.array(z.string()) }),
    z.object({ rating: z.number().int() }),
    z.object({ words: z.array(z.string()) }),
    z.object({ text: z.string() }),
  ]),
  points: z.number().int().min(0).optional(),
  answeredAt: z.string(),
});
export type ExportedPollAnswer = z.infer<typeof exportedPollAnswerSchema>;

/** One report an attendee made of a memory: its reason, the memory, and when. */
export const exportedReportSchema = z.object({
  memoryId: z.string(),
  category: reportCategorySchema,
  reason: z.string(),
  reportedAt: z.string(),
});
export type ExportedReport = z.infer<typeof exportedReportSchema>;

/**
 * GET /api/attendees/me/export: everything the app keeps of the calling attendee, as one JSON
 * file (decision 215): who they are, their memories (with the URLs of their files, absolute when
 * the server knows its public address), the questions they asked, their votes, poll answers and
 * reports.
 */
export const attendeeExportSchema = z.object({
  exportedAt: z.iso.datetime(),
  attendee: z.object({
    id: z.string(),
    username: z.string(),
    joinedAt: z.string().nullable(),
  }),
  memories: z.array(memorySchema),
  questions: z.array(questionSchema),
  votes: z.array(exportedVoteSchema),
  pollAnswers: z.array(exportedPollAnswerSchema),
  /** The reports they made with their token (of memories still there). */
  reports: z.array(exportedReportSchema),
  /** Their devices subscribed to announcements: each one's push service address, and since when. */
  pushSubscriptions: z.array(z.object({ endpoint: z.string(), createdAt: z.string() })),
});
export type AttendeeExport = z.infer<typeof attendeeExportSchema>;
