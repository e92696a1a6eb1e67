import { useMemo, useSyncExternalStore } from 'react';
import { z } from 'zod';
import { STORAGE_KEYS } from '../../../shared/constants.ts';
import { type Memory, memorySchema } from '../../../shared/schemas/memory.ts';

/**
 * The memories this browser posted that await the admin's approval (decision 140). Public lists
 * and events carry only published memories, so the poster's own pending ones are the create
 * answer, kept here (and in local storage, so a reload keeps them) until they are published or
 * deleted, which the socket and the gallery's polls tell. Bounded: the latest 20, for a day.
 */
const STORAGE_KEY = STORAGE_KEYS.pendingMemories;
const MAX_KEPT = 20;
const KEPT_FOR_MS = 24 * 60 * 60 * 1000;

const storedSchema = z.array(memorySchema);

const listeners = new Set<() => void>();
let cache: Memory[] | undefined;

const fresh = (memories: Memory[]): Memory[] => {
  const since = Date.now() - KEPT_FOR_MS;
  return memories
    .filter((memory) => memory.status === 'pending' && Date.parse(memory.createdAt) > since)
    .slice(0, MAX_KEPT);
};

function read(): Memory[] {
  if (cache) return cache;
  let stored: unknown;
  try {
    stored = JSON.parse(window.localStorage.getItem(STORAGE_KEY) ?? '[]');
  } catch {
    stored = [];
  }
  const parsed = storedSchema.safeParse(stored);
  cache = parsed.success ? fresh(parsed.data) : [];
  return cache;
}

function write(memories: Memory[]): void {
  cache = memories;
  try {
    if (memories.length === 0) window.localStorage.removeItem(STORAGE_KEY);
    else window.localStorage.setItem(STORAGE_KEY, JSON.stringify(memories));
  } catch {
    // Private mode or a full storage: kept for this page only.
  }
  for (const listener of listeners) listener();
}

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key !== STORAGE_KEY && event.key !== null) return;
    cache = undefined;
    for (const listener of listeners) listener();
  });
}

/** Keeps the pending ones of a post's answer (newest first). */
export function keepOwnPending(memories: readonly Memory[]): void {
  const pending = memories.filter((memory) => memory.status === 'pending');
  if (pending.length === 0) return;
  const ids = new Set(pending.map((memory) => memory._id));
  write(fresh([...pending, ...read().filter((memory) => !ids.has(memory._id))]));
}

/** Forgets memories that are published now, or deleted. */
export function forgetOwnPending(ids: Iterable<string>): void {
  const gone = new Set(ids);
  const current = read();
  if (!current.some((memory) => gone.has(memory._id))) return;
  write(current.filter((memory) => !gone.has(memory._id)));
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

const NONE: Memory[] = [];

/** The pending memories this browser posted as `username`, newest first. */
export function useOwnPending(username: string | undefined): Memory[] {
  const all = useSyncExternalStore(subscribe, read, () => NONE);
  return useMemo(
    () => (username ? all.filter((memory) => memory.username === username) : NONE),
    [all, username],
  );
}
