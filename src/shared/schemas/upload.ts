import { z } from 'zod';
import { idSchema } from './common.ts';
import { memoryPostFieldsSchema } from './memory.ts';

/** Where resumable (tus 1.0) uploads go: `POST` here makes one, its `Location` takes the bytes. */
export const UPLOADS_PATH = '/api/uploads';

/** The header a memory post carries so that a repeat of it creates nothing. */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/** Set on the answer to a repeated post: this is the first post's answer, replayed. */
export const IDEMPOTENT_REPLAY_HEADER = 'idempotent-replayed';

/** One key per post: 1 to 100 visible ASCII characters (the app sends a UUID). */
export const idempotencyKeySchema = z.string().regex(/^[\x21-\x7e]{1,100}$/, {
  error: 'Idempotency-Key must be 1 to 100 visible ASCII characters',
});

/** The headers of `POST /api/memories` that its schema checks (every other header passes). */
export const idempotencyHeadersSchema = z.looseObject({
  [IDEMPOTENCY_KEY_HEADER]: idempotencyKeySchema.optional(),
});

/**
 * The `Upload-Metadata` of a resumable upload: one file of a memory post, with the post's
 * caption and username, and the post it joins when it carries several files (`postId`, a UUID
 * the app makes once per post).
 */
export const uploadMetadataSchema = memoryPostFieldsSchema.extend({
  filename: z
    .string({ error: 'filename is required' })
    .min(1, { error: 'filename is required' })
    .max(255, { error: 'filename must be at most 255 characters' }),
  filetype: z.string().max(255).optional(),
  postId: idSchema.optional(),
});
export type UploadMetadata = z.infer<typeof uploadMetadataSchema>;
