import { z } from 'zod';
import { memorySchema } from './memory.ts';
import { questionSchema } from './question.ts';

/**
 * DELETE /api/attendees/me: what the erasure removed (decision 214). `files`: the stored files
 * deleted (each memory's renditions, poster and master, and unfinished uploads); `pollAnswers`
 * counts once polls exist.
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
 * GET /api/attendees/me/export: everything the app keeps of the calling attendee, as one JSON
 * file (decision 215): who they are, their memories (with the URLs of their files, absolute when
 * the server knows its public address), the questions they asked, their votes and poll answers.
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
  /** Each poll answer as the polls keep it; none until the event has polls. */
  pollAnswers: z.array(z.unknown()),
});
export type AttendeeExport = z.infer<typeof attendeeExportSchema>;
