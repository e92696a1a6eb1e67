import { z } from 'zod';
import { LIMITS } from '../constants.ts';
import { idSchema, multiLineText, pageQuerySchema, usernameSchema } from './common.ts';

/**
 * Whether everybody sees a memory (`published`) or only the admin and its poster until the admin
 * approves it (`pending`, posted while `moderateMemories` is on).
 */
export const memoryStatusSchema = z.enum(['published', 'pending']);
export type MemoryStatus = z.infer<typeof memoryStatusSchema>;

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
  status: memoryStatusSchema,
});
export type Memory = z.infer<typeof memorySchema>;

/** GET /api/memory: newest first, paged with `limit` and `before`. */
export const memoryListQuerySchema = pageQuerySchema;
export const memoryListSchema = z.array(memorySchema);

/** GET /api/memory/:id */
export const memoryParamsSchema = z.object({ id: idSchema });

/** POST /api/memories: the text fields of the multipart form (the files are checked apart). */
export const memoryPostFieldsSchema = z.object({
  caption: multiLineText('Caption', LIMITS.captionMax),
  username: usernameSchema,
});
export type MemoryPostFields = z.infer<typeof memoryPostFieldsSchema>;

/** The multipart fields a post's files may come in: `files`, or `media` (the share dialog). */
export const MEMORY_FILE_FIELDS = ['files', 'media'] as const;

export const memoryPostResponseSchema = z.object({
  message: z.string(),
  memories: z.array(memorySchema),
});
export type MemoryPostResponse = z.infer<typeof memoryPostResponseSchema>;

/**
 * PATCH /api/media/:id: the admin approves a pending memory. Only `published` is taken: a
 * published memory is taken down by deleting it (decision 137).
 */
export const memoryStatusUpdateSchema = z
  .object({
    status: z.literal('published', {
      error: 'status must be "published" (delete a memory to take it down)',
    }),
  })
  .strict();

export const memoryUpdateResponseSchema = z.object({ memory: memorySchema });
