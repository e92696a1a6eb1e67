import { z } from 'zod';
import { idSchema } from './common.ts';

/** The most reactions an event offers at once. */
export const MAX_REACTIONS = 8;

/** The reactions an event offers until the organiser picks others (decision 237). */
export const DEFAULT_REACTIONS = ['👏', '❤️', '😂', '😮', '🤔', '🎉'];

/**
 * One emoji as Unicode recommends it for general interchange (a flag, a skin tone and a family
 * are one each): nothing else is a reaction. Made at run time: the `v` flag is newer than the
 * language level the code is checked against, and every browser and Node the app runs on has it.
 * Made at its first use: compiling the emoji's thousands of sequences is a long task on a phone,
 * and only the organiser's reaction setting needs it.
 */
let oneEmoji: RegExp | undefined;
const isOneEmoji = (value: string) =>
  (oneEmoji ??= new RegExp('^\\p{RGI_Emoji}$', 'v')).test(value);

/** The longest emoji taken, in UTF-16 code units: a family of four with its joiners is 11. */
const EMOJI_MAX = 16;

/** A reaction an organiser offers. */
export const reactionEmojiSchema = z
  .string({ error: 'reactions must be emoji' })
  .max(EMOJI_MAX, { error: 'reactions must be single emoji' })
  .refine(isOneEmoji, { error: 'reactions must be single emoji' });

/** The event's reactions, in the order the reaction bar shows them; an empty list turns them off. */
export const reactionsSettingSchema = z
  .array(reactionEmojiSchema, { error: 'reactions must be a list of emoji' })
  .max(MAX_REACTIONS, { error: `reactions takes at most ${MAX_REACTIONS} emoji` })
  .refine((list) => new Set(list).size === list.length, {
    error: 'reactions must not repeat an emoji',
  });

/**
 * POST /api/reactions: one tap of one of the event's reactions, in a session (its watchers see
 * it) or, without `sessionId`, for the whole event (everybody sees it). Anything else is refused.
 */
export const reactionRequestSchema = z
  .object({
    emoji: z
      .string({ error: 'emoji is required' })
      .min(1, { error: 'emoji is required' })
      .max(EMOJI_MAX, { error: 'emoji must be one of the event’s reactions' }),
    sessionId: idSchema.optional(),
  })
  .strict();
export type ReactionRequest = z.infer<typeof reactionRequestSchema>;

/** The taps of one emoji or more, summed: emoji to how many. */
export const reactionCountsSchema = z.record(z.string().max(EMOJI_MAX), z.number().int().min(1));
export type ReactionCounts = z.infer<typeof reactionCountsSchema>;
