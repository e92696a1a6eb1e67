import { z } from 'zod';
import { idSchema } from './common.ts';

/** A speaker as the API answers it: `picture` is a URL. */
export const speakerSchema = z.object({
  _id: idSchema,
  name: z.string(),
  username: z.string(),
  stack: z.string(),
  bio: z.string(),
  picture: z.string(),
  message: z.string(),
  createdAt: z.iso.datetime(),
});
export type Speaker = z.infer<typeof speakerSchema>;
