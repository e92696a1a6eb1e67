import type { Memory } from '../../../shared/schemas/memory.ts';

/**
 * What the wall shows and what comes next. The wall turns through the newest memories, newest
 * first, one every interval; a memory that arrives (posted, or approved) jumps the queue: it is
 * shown as soon as the memory on screen has been up for a moment, the latest arrival first.
 * Everything here is bounded:
 * the queue of arrivals and the ids known are cut to the list's size.
 */
export interface WallState {
  current: Memory | null;
  /** Whether `current` came as an arrival (it then keeps the screen a little longer). */
  currentFresh: boolean;
  /** When `current` went up (ms, the page's clock). */
  shownAt: number;
  /** Arrivals waiting for the screen, in the order they came (the latest goes up first). */
  queue: Memory[];
  /** The ids of the list last seen, and of the arrivals: anything else in a list is new. */
  known: ReadonlySet<string>;
  /** Whether a list has been seen: the first one is what was there, not arrivals. */
  synced: boolean;
}

/** The longest queue kept: of a longer burst, the earliest wait for the rotation. */
const MAX_QUEUE = 60;
/** How long a memory from the rotation stays up at least before an arrival replaces it. */
export const MIN_SHOWN_MS = 1_000;
/** How long an arrival stays up at least before the next arrival replaces it. */
export const MIN_FRESH_SHOWN_MS = 4_000;
/** The longest a video keeps the screen. */
export const MAX_VIDEO_MS = 60_000;

export const emptyWall = (): WallState => ({
  current: null,
  currentFresh: false,
  shownAt: 0,
  queue: [],
  known: new Set(),
  synced: false,
});

const newestFirst = (a: Memory, b: Memory) => (a._id < b._id ? 1 : a._id > b._id ? -1 : 0);

/** Memories that arrived (by socket, or found by a poll): queued unless known already. */
export function arrive(state: WallState, memories: readonly Memory[]): WallState {
  const fresh = memories.filter(
    (memory) =>
      memory.status === 'published' &&
      !state.known.has(memory._id) &&
      memory._id !== state.current?._id &&
      !state.queue.some((queued) => queued._id === memory._id),
  );
  if (fresh.length === 0) return state;
  const known = new Set(state.known);
  for (const memory of fresh) known.add(memory._id);
  return { ...state, known, queue: [...state.queue, ...fresh].slice(-MAX_QUEUE) };
}

/**
 * A list from the server (the newest memories, newest first): memories in it that were not in
 * the one before (and are not older than all of it) arrived; the first list only sets what is
 * known. Known memories get their latest copy (a new rendition).
 */
export function sync(state: WallState, list: readonly Memory[], listSize: number): WallState {
  if (!state.synced) {
    return { ...state, synced: true, known: new Set(list.map((memory) => memory._id)) };
  }
  const previous = [...state.known];
  const oldestKnown = previous.length >= listSize ? previous.sort()[0] : undefined;
  const arrived = list.filter(
    (memory) => !state.known.has(memory._id) && (!oldestKnown || memory._id > oldestKnown),
  );
  const next = arrive(state, arrived);
  // What is known: this list and what waits or shows, no more (it stays as large as the list).
  const known = new Set(list.map((memory) => memory._id));
  for (const memory of next.queue) known.add(memory._id);
  if (next.current) known.add(next.current._id);
  const latest = new Map(list.map((memory) => [memory._id, memory]));
  const current = next.current ? (latest.get(next.current._id) ?? next.current) : null;
  return { ...next, known, current };
}

/** A memory changed (a new rendition): its latest copy is shown from now on. */
export function update(state: WallState, memory: Memory): WallState {
  if (state.current?._id === memory._id) return { ...state, current: memory };
  if (!state.queue.some((queued) => queued._id === memory._id)) return state;
  return {
    ...state,
    queue: state.queue.map((queued) => (queued._id === memory._id ? memory : queued)),
  };
}

/** A memory was deleted: out of the queue, and off the screen at once. */
export function remove(state: WallState, id: string, list: readonly Memory[], now: number) {
  const queue = state.queue.filter((memory) => memory._id !== id);
  const without = queue.length === state.queue.length ? state : { ...state, queue };
  if (state.current?._id !== id) return without;
  return advance(
    without,
    list.filter((memory) => memory._id !== id),
    now,
  );
}

/** The memory after `current` in the rotation: the next older one, from the newest again. */
function nextInRotation(list: readonly Memory[], current: Memory | null): Memory | null {
  if (list.length === 0) return null;
  const sorted = [...list].sort(newestFirst);
  if (!current) return sorted[0] ?? null;
  const older = sorted.find((memory) => memory._id < current._id);
  return older ?? sorted[0] ?? null;
}

/**
 * The next memory goes up: the latest arrival waiting (so a new memory never waits behind a
 * burst: the others are in the rotation anyway), else the next in the rotation.
 */
export function advance(state: WallState, list: readonly Memory[], now: number): WallState {
  const arrival = state.queue.at(-1);
  if (arrival) {
    return {
      ...state,
      current: arrival,
      currentFresh: true,
      shownAt: now,
      queue: state.queue.slice(0, -1),
    };
  }
  const next = nextInRotation(list, state.current);
  // One memory only: it stays, and so does when it went up (nothing changes on screen).
  if (next?._id === state.current?._id) return state;
  return { ...state, current: next, currentFresh: false, shownAt: now };
}

/**
 * How long until the next memory goes up: the interval (a video: its length, between the
 * interval and a minute), sooner when an arrival waits.
 */
export function nextChangeIn(
  state: WallState,
  now: number,
  intervalMs: number,
  videoMs: number | null,
): number {
  const elapsed = now - state.shownAt;
  const slot =
    videoMs === null ? intervalMs : Math.min(Math.max(videoMs, intervalMs), MAX_VIDEO_MS);
  if (state.queue.length > 0) {
    const least = state.currentFresh ? MIN_FRESH_SHOWN_MS : MIN_SHOWN_MS;
    return Math.max(0, Math.min(least, slot) - elapsed);
  }
  return Math.max(0, slot - elapsed);
}

/** What happens to the wall, as its screen hears of it. */
export type WallEvent =
  | { type: 'sync'; list: Memory[] }
  | { type: 'arrive'; memory: Memory }
  | { type: 'update'; memory: Memory }
  | { type: 'remove'; id: string; list: Memory[] }
  /** The time of the slide that went up at `shownAt` is up. */
  | { type: 'advance'; list: Memory[]; shownAt: number };

/**
 * The wall's reducer, for lists of `listSize` memories, on the clock `now`: each event applied,
 * and an empty screen filled as soon as there is something to show.
 */
export const wallReducer =
  (listSize: number, now: () => number) =>
  (state: WallState, event: WallEvent): WallState => {
    switch (event.type) {
      case 'sync': {
        const synced = sync(state, event.list, listSize);
        return synced.current ? synced : advance(synced, event.list, now());
      }
      case 'arrive': {
        const arrived = arrive(state, [event.memory]);
        return arrived.current ? arrived : advance(arrived, [], now());
      }
      case 'update':
        return update(state, event.memory);
      case 'remove':
        return remove(state, event.id, event.list, now());
      case 'advance':
        // A timer set for a slide that is no longer up fires late (before the screen cleared
        // it): it must not take the screen from the slide that went up since.
        return event.shownAt === state.shownAt ? advance(state, event.list, now()) : state;
    }
  };
