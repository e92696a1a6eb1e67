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
  /**
   * The full-resolution master "Download" and the ZIP serve: upright, sRGB, every metadata
   * block removed (a video: the stored file, its metadata stripped). Never the file as sent.
   */
  original: z.string(),
  contentType: z.string(),
  username: z.string(),
  text: z.string(),
  postId: idSchema,
  createdAt: z.iso.datetime(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  status: memoryStatusSchema,
  /** A video's still frame (JPEG), for the player and link previews; null for a photo. */
  poster: z.string().nullable(),
  /**
   * True while a video's playable rendition is being made: `media` is then the video as sent,
   * its metadata stripped, which may not play everywhere; a `memoryUpdated` follows.
   */
  processing: z.boolean(),
});
export type Memory = z.infer<typeof memorySchema>;

/** GET /api/memory: newest first, paged with `limit` and `before`. */
export const memoryListQuerySchema = pageQuerySchema;
export const memoryListSchema = z.array(memorySchema);

/** GET /api/memory/:id, DELETE /api/memories/:id */
export const memoryParamsSchema = z.object({ id: idSchema });

/** GET /api/memories/mine: the ids of the memories the caller's attendee token posted. */
export const ownMemoriesSchema = z.object({ ids: z.array(idSchema) });
export type OwnMemories = z.infer<typeof ownMemoriesSchema>;

/** POST /api/memories: the text fields of the multipart form (the files are checked apart). */
export const memoryPostFieldsSchema = z.object({
  caption: multiLineText('Caption', LIMITS.captionMax),
  username: usernameSchema,
});
export type MemoryPostFields = z.infer<typeof memoryPostFieldsSchema>;

/** The multipart fields a post's files may come in: `files`, or `media` (the share dialog). */
export const MEMORY_FILE_FIELDS = ['files', 'media'] as const;

/** A file of a post that was not stored, and why (the rest of the post was: decision 144). */
export const refusedFileSchema = z.object({ filename: z.string(), error: z.string() });
export type RefusedFile = z.infer<typeof refusedFileSchema>;

export const memoryPostResponseSchema = z.object({
  message: z.string(),
  memories: z.array(memorySchema),
  /** The post's files that were refused (each named, with the reason); empty when none was. */
  refused: z.array(refusedFileSchema).default([]),
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
