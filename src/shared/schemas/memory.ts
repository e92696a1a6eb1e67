import { z } from 'zod';
import { idSchema } from './common.ts';

/** A memory as the API answers it: `media` and `thumbnail` are URLs, never data. */
export const memorySchema = z.object({
  _id: idSchema,
  media: z.string(),
  thumbnail: z.string().nullable(),
  contentType: z.string(),
  username: z.string(),
  text: z.string(),
  postId: idSchema,
  createdAt: z.iso.datetime(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
});
export type Memory = z.infer<typeof memorySchema>;
