import type { ReactionCounts } from '../../shared/schemas/reaction.ts';

/**
 * The longest a tap waits before its sum is sent, and the least time between two sums of one
 * session: at most 4 `reactions` a second per session, however many tap (decision 237).
 */
export const REACTION_WINDOW_MS = 250;

/** The window of one session (or of the whole event). */
interface Window {
  timer: NodeJS.Timeout;
  /** The taps since the window began, by emoji; none yet: the window ends quietly. */
  counts: Map<string, number>;
}

/**
 * Sums reactions per session, paced as a poll's updates are (decision 220): a tap after a quiet
 * window is sent at once, and the taps that follow within the window are sent as one sum at its
 * end, which opens the next window. Nothing is kept once a window ends with no taps, so memory
 * follows the sessions being tapped in this quarter of a second.
 */
export class ReactionSums {
  readonly #windows = new Map<string | null, Window>();
  readonly #send: (sessionId: string | null, counts: ReactionCounts) => void;
  readonly #windowMs: number;

  constructor(
    send: (sessionId: string | null, counts: ReactionCounts) => void,
    windowMs = REACTION_WINDOW_MS,
  ) {
    this.#send = send;
    this.#windowMs = windowMs;
  }

  /** Counts `count` taps of `emoji` in a session (null: the whole event). */
  add(sessionId: string | null, emoji: string, count = 1): void {
    this.addAll(sessionId, { [emoji]: count });
  }

  /** Counts a sum of taps (another window's, by emoji) in a session (null: the whole event). */
  addAll(sessionId: string | null, counts: ReactionCounts): void {
    const window = this.#windows.get(sessionId);
    if (window) {
      for (const [emoji, count] of Object.entries(counts)) {
        window.counts.set(emoji, (window.counts.get(emoji) ?? 0) + count);
      }
      return;
    }
    this.#open(sessionId);
    this.#send(sessionId, { ...counts });
  }

  /** Sessions with a window open (what the sums hold in memory). */
  get size(): number {
    return this.#windows.size;
  }

  /** Drops every window and what it summed. */
  stop(): void {
    for (const window of this.#windows.values()) clearTimeout(window.timer);
    this.#windows.clear();
  }

  #open(sessionId: string | null): void {
    const timer = setTimeout(() => this.#end(sessionId), this.#windowMs);
    this.#windows.set(sessionId, { timer, counts: new Map() });
  }

  #end(sessionId: string | null): void {
    const window = this.#windows.get(sessionId);
    this.#windows.delete(sessionId);
    if (!window || window.counts.size === 0) return;
    this.#open(sessionId);
    this.#send(sessionId, Object.fromEntries(window.counts));
  }
}
