import type { BlockedWordAction } from '../../shared/schemas/settings.ts';
import { blockedWords } from '../http/errors.ts';
import type { BlockedWords } from './blocked-words.ts';

/** What people write that the blocked words apply to (decision 236). */
export type Surface =
  /** A question's text (POST /api/questions). */
  | 'question'
  /** A memory's caption. */
  | 'caption'
  /** An answer to an open poll. */
  | 'pollAnswer'
  /** One entry of a word cloud. */
  | 'cloudWord'
  /** A speaker's written answer to a question. */
  | 'answer'
  /** The name an attendee joins with. */
  | 'username';

/** What a blocked word does to a text of each surface, by the organiser's action. */
type Outcome = 'held' | 'refused' | 'masked' | 'left out';

/**
 * Decision 236. A question, a caption and an open answer have a pending state for the admin:
 * hold uses it. A name is shown everywhere at once and has none, and a starred name names
 * nobody: any action refuses it. A speaker's answer has no pending state either: hold refuses
 * it, so the speaker rephrases at once. A word cloud's entry held or starred is left out of the
 * cloud (a starred word in a cloud says nothing); blocked, the answer is refused.
 */
const OUTCOMES: Record<Surface, Record<BlockedWordAction, Outcome>> = {
  question: { hold: 'held', block: 'refused', mask: 'masked' },
  caption: { hold: 'held', block: 'refused', mask: 'masked' },
  pollAnswer: { hold: 'held', block: 'refused', mask: 'masked' },
  cloudWord: { hold: 'left out', block: 'refused', mask: 'left out' },
  answer: { hold: 'refused', block: 'refused', mask: 'masked' },
  username: { hold: 'refused', block: 'refused', mask: 'refused' },
};

/** A text as it is stored: perhaps starred, and whether it waits for the admin or is left out. */
export interface Screened {
  text: string;
  /** Held for the admin (pending, hidden) or, for a word cloud's entry, left out. */
  held: boolean;
}

/**
 * The one check of every write people make against the organiser's blocked words: the text as
 * it is to be stored and whether it is held, or a 422 (`BLOCKED_WORDS`) naming no word. Texts
 * without a blocked word come back as they were.
 */
export function screenText(
  blocked: { words: BlockedWords; action: BlockedWordAction },
  surface: Surface,
  text: string,
): Screened {
  if (blocked.words.size === 0) return { text, held: false };
  const outcome = OUTCOMES[surface][blocked.action];
  if (outcome === 'masked') {
    const masked = blocked.words.mask(text);
    return { text: masked, held: false };
  }
  if (!blocked.words.test(text)) return { text, held: false };
  if (outcome === 'refused') throw blockedWords(surface === 'username' ? 'name' : 'text');
  return { text, held: true };
}
