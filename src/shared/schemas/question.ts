import { z } from 'zod';
import { idSchema } from './common.ts';

/** A question as the API answers it. */
export const questionSchema = z.object({
  _id: idSchema,
  speakerId: idSchema,
  speakerName: z.string(),
  askerUsername: z.string(),
  question: z.string(),
  createdAt: z.iso.datetime(),
});
export type Question = z.infer<typeof questionSchema>;
