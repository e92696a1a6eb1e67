import { describe, expect, it } from 'vitest';
import type { Memory } from '../../../shared/schemas/memory.ts';
import { memoryFixture, memoryId } from '../../../../tests/support/memory-fixture.ts';
import {
  MIN_FRESH_SHOWN_MS,
  MIN_SHOWN_MS,
  advance,
  arrive,
  emptyWall,
  nextChangeIn,
  remove,
  sync,
  wallReducer,
} from './wall-playlist.ts';

const memory = (n: number, status: Memory['status'] = 'published') =>
  memoryFixture(memoryId(n), { username: `u${n}`, text: `memory ${n}`, status });

/** The newest first, as the list answers. */
const list = (...ns: number[]) => ns.map((n) => memory(n)).sort((a, b) => (a._id < b._id ? 1 : -1));

describe('the wall playlist', () => {
  it('turns newest to oldest and starts again', () => {
    const memories = list(1, 2, 3);
    let state = advance(sync(emptyWall(), memories, 60), memories, 0);
    const shown = [];
    for (let i = 0; i < 4; i += 1) {
      shown.push(state.current?.username);
      state = advance(state, memories, i * 1000);
    }
    expect(shown).toEqual(['u3', 'u2', 'u1', 'u3']);
  });

  it('treats the first list as what was there, and later ones as arrivals, once', () => {
    let state = sync(emptyWall(), list(1, 2), 60);
    expect(state.queue).toEqual([]);
    state = advance(state, list(1, 2), 0);
    state = sync(state, list(1, 2, 3), 60);
    expect(state.queue.map((m) => m.username)).toEqual(['u3']);
    // The socket brings the same one: not twice.
    state = arrive(state, [memory(3)]);
    expect(state.queue).toHaveLength(1);
    // Pending ones never arrive.
    expect(arrive(state, [memory(9, 'pending')]).queue).toHaveLength(1);
  });

  it('puts an arrival up after the slide has been up a moment, then the next after longer', () => {
    const memories = list(1, 2);
    let state = advance(sync(emptyWall(), memories, 60), memories, 0);
    expect(nextChangeIn(state, 0, 8000, null)).toBe(8000);
    state = arrive(state, [memory(3), memory(4)]);
    expect(nextChangeIn(state, 200, 8000, null)).toBe(MIN_SHOWN_MS - 200);
    // The latest arrival first: a new memory never waits behind a burst.
    state = advance(state, memories, 1000);
    expect(state.current?.username).toBe('u4');
    expect(nextChangeIn(state, 1000, 8000, null)).toBe(MIN_FRESH_SHOWN_MS);
    state = advance(state, memories, 5000);
    expect(state.current?.username).toBe('u3');
    expect(nextChangeIn(state, 5000, 8000, null)).toBe(8000);
  });

  it('keeps a video up for its length, between the interval and a minute', () => {
    const memories = list(1);
    const state = advance(sync(emptyWall(), memories, 60), memories, 0);
    expect(nextChangeIn(state, 0, 8000, 3000)).toBe(8000);
    expect(nextChangeIn(state, 0, 8000, 20_000)).toBe(20_000);
    expect(nextChangeIn(state, 0, 8000, 600_000)).toBe(60_000);
  });

  it('takes a deleted memory off the screen at once, and out of the queue', () => {
    const memories = list(1, 2, 3);
    let state = advance(sync(emptyWall(), memories, 60), memories, 0);
    state = arrive(state, [memory(4)]);
    state = remove(state, memory(4)._id, memories, 10);
    expect(state.queue).toEqual([]);
    expect(state.current?.username).toBe('u3');
    state = remove(state, memory(3)._id, list(1, 2), 20);
    expect(state.current?.username).toBe('u2');
    state = remove(state, memory(2)._id, [], 30);
    expect(state.current).toBeNull();
  });

  it('fills an empty screen from the first list, or else from the first arrival', () => {
    const reduce = wallReducer(60, () => 0);
    expect(reduce(emptyWall(), { type: 'sync', list: list(1, 2) }).current?.username).toBe('u2');
    const empty = reduce(emptyWall(), { type: 'sync', list: [] });
    expect(empty.current).toBeNull();
    expect(reduce(empty, { type: 'arrive', memory: memory(3) }).current?.username).toBe('u3');
  });

  it('lets a late timer of a slide no longer up do nothing: an arrival is not skipped', () => {
    // The order a projector's page met: a memory arrives by socket, the list that the socket
    // merged into comes next, and the timers the screen set after each render both fire, the
    // second before the screen could clear it (each carries the slide up when it was set).
    let clock = 0;
    const reduce = wallReducer(60, () => clock);
    const before = list(1, 2);
    let state = reduce(emptyWall(), { type: 'sync', list: before });
    clock = 5000;
    state = reduce(state, { type: 'arrive', memory: memory(3) });
    const after = list(1, 2, 3);
    state = reduce(state, { type: 'sync', list: after });
    const due = { type: 'advance', list: after, shownAt: state.shownAt } as const;
    state = reduce(state, due);
    expect(state.current?.username).toBe('u3');
    clock = 5009;
    state = reduce(state, due);
    expect(state.current?.username).toBe('u3');
    // Deleted: it leaves the screen, which the next timer then turns on from.
    state = reduce(state, { type: 'remove', id: memory(3)._id, list: list(1, 2) });
    expect(state.current?.username).toBe('u2');
    clock = 13_009;
    state = reduce(state, { type: 'advance', list: list(1, 2), shownAt: state.shownAt });
    expect(state.current?.username).toBe('u1');
  });

  it('stays bounded: what it knows is the list and what waits', () => {
    let state = advance(sync(emptyWall(), list(1), 3), list(1), 0);
    for (let n = 2; n < 500; n += 1) {
      const window = list(n, n - 1, n - 2).filter((m) => m.username !== 'u0');
      state = sync(state, window, 3);
      state = advance(state, window, n * 1000);
    }
    expect(state.known.size).toBeLessThanOrEqual(5);
    expect(state.queue.length).toBeLessThanOrEqual(1);
  });
});
