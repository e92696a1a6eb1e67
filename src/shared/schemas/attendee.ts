import { z } from 'zod';
import { usernameSchema } from './common.ts';

const hex = (max: number) =>
  z
    .string()
    .regex(/^[0-9a-f]+$/i)
    .max(max);

/**
 * A proof-of-work challenge (ALTCHA v2, PBKDF2/SHA-256, decision 198): its parameters as the
 * server signed them, and the signature. The client solves it as it is and sends it back.
 */
export const joinChallengeSchema = z.object({
  parameters: z.object({
    algorithm: z.literal('PBKDF2/SHA-256'),
    nonce: hex(64),
    salt: hex(64),
    cost: z.number().int().positive().max(1_000_000),
    keyLength: z.number().int().positive().max(64),
    keyPrefix: hex(128),
    keySignature: hex(128).optional(),
    expiresAt: z.number().int().positive().optional(),
  }),
  signature: hex(128),
});
export type JoinChallenge = z.infer<typeof joinChallengeSchema>;

/** A solved challenge: the counter found and the key it derives. */
export const joinProofSchema = z.object({
  challenge: joinChallengeSchema,
  solution: z.object({
    counter: z.number().int().min(0).max(0xffffffff),
    derivedKey: hex(128),
  }),
});
export type JoinProof = z.infer<typeof joinProofSchema>;

/** POST /api/attendees/challenge: a challenge to solve before joining, or null while joins are free. */
export const joinChallengeResponseSchema = z.object({ challenge: joinChallengeSchema.nullable() });

/**
 * POST /api/attendees: the username an attendee joins with, and, when joins from the address
 * cost a proof of work, the solved challenge.
 */
export const attendeeCreateRequestSchema = z.object({
  username: usernameSchema,
  proof: joinProofSchema.optional(),
});

/** 201: the username and the signed attendee token kept beside it. */
export const attendeeResponseSchema = z.object({ username: z.string(), token: z.string() });
