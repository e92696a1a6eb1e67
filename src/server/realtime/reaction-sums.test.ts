import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REACTION_WINDOW_MS, ReactionSums } from './reaction-sums.ts';

describe('the summing window of reactions', () => {
  let sent: { at: number; sessionId: string | null; counts: Record<string, number> }[];
  let sums: ReactionSums;
  beforeEach(() => {
    vi.useFakeTimers();
    sent = [];
    sums = new ReactionSums((sessionId, counts) =>
      sent.push({ at: Date.now(), sessionId, counts }),
    );
  });
  afterEach(() => {
    sums.stop();
    vi.useRealTimers();
  });

  it('sends a lone tap at once, and nothing more once the window ends quiet', () => {
    const start = Date.now();
    sums.add('s1', '👏');
    expect(sent).toEqual([{ at: start, sessionId: 's1', counts: { '👏': 1 } }]);
    vi.advanceTimersByTime(REACTION_WINDOW_MS * 4);
    expect(sent).toHaveLength(1);
    expect(sums.size).toBe(0);
  });

  it('sums the taps of a window into one event at its end, at most 4 a second', () => {
    const start = Date.now();
    // 1,000 taps a second for two seconds.
    for (let ms = 0; ms < 2000; ms += 1) {
      sums.add('s1', ms % 2 === 0 ? '👏' : '🎉');
      vi.advanceTimersByTime(1);
    }
    vi.advanceTimersByTime(REACTION_WINDOW_MS * 2);
    const total = (emoji: string) => sent.reduce((sum, e) => sum + (e.counts[emoji] ?? 0), 0);
    expect(total('👏')).toBe(1000);
    expect(total('🎉')).toBe(1000);
    expect(sent.length).toBeLessThanOrEqual(1 + 2000 / REACTION_WINDOW_MS + 1);
    for (let i = 1; i < sent.length; i += 1) {
      expect((sent[i]?.at ?? 0) - (sent[i - 1]?.at ?? 0)).toBeGreaterThanOrEqual(
        REACTION_WINDOW_MS,
      );
    }
    expect((sent.at(-1)?.at ?? 0) - start).toBeLessThanOrEqual(2000 + REACTION_WINDOW_MS);
    expect(sums.size).toBe(0);
  });

  it('paces each session (and the whole event) on its own', () => {
    sums.add('s1', '👏');
    sums.add('s2', '👏');
    sums.add(null, '🎉');
    sums.add('s1', '❤️', 3);
    expect(sent.map((e) => e.sessionId)).toEqual(['s1', 's2', null]);
    vi.advanceTimersByTime(REACTION_WINDOW_MS);
    expect(sent.at(-1)).toMatchObject({ sessionId: 's1', counts: { '❤️': 3 } });
    expect(sent).toHaveLength(4);
  });

  it('stops: what waits is dropped and no timer is left', () => {
    sums.add('s1', '👏');
    sums.add('s1', '👏');
    sums.stop();
    vi.advanceTimersByTime(REACTION_WINDOW_MS * 2);
    expect(sent).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });
});
