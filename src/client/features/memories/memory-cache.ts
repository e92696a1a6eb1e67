import type { InfiniteData } from '@tanstack/react-query';
import type { Memory } from '../../../shared/schemas/memory.ts';

type Pages = InfiniteData<Memory[], string | undefined>;

const newestFirst = (a: Memory, b: Memory) => (a._id < b._id ? 1 : a._id > b._id ? -1 : 0);

/**
 * Adds memories to the gallery's pages by id: one already there is left alone (never twice),
 * a new one goes into the first page in its place (ids sort by time, newest first).
 */
export function mergeMemories(data: Pages | undefined, incoming: Memory[]): Pages | undefined {
  if (!data) return data;
  const known = new Set(data.pages.flatMap((page) => page.map((memory) => memory._id)));
  const fresh = incoming.filter((memory, index) => {
    if (known.has(memory._id)) return false;
    return incoming.findIndex((other) => other._id === memory._id) === index;
  });
  if (fresh.length === 0) return data;
  const [first = [], ...rest] = data.pages;
  return { ...data, pages: [[...fresh, ...first].sort(newestFirst), ...rest] };
}

/**
 * A memory that changed (`memoryUpdated`): its copy in the pages is replaced; a published one
 * that is not there (just approved) goes in as a new one would.
 */
export function updateMemory(data: Pages | undefined, memory: Memory): Pages | undefined {
  if (!data) return data;
  const known = data.pages.some((page) => page.some((item) => item._id === memory._id));
  if (!known) return memory.status === 'published' ? mergeMemories(data, [memory]) : data;
  if (memory.status !== 'published') return removeMemory(data, memory._id);
  return {
    ...data,
    pages: data.pages.map((page) => page.map((item) => (item._id === memory._id ? memory : item))),
  };
}

/** Takes a deleted memory out of every page. */
export function removeMemory(data: Pages | undefined, id: string): Pages | undefined {
  if (!data || !data.pages.some((page) => page.some((memory) => memory._id === id))) return data;
  return { ...data, pages: data.pages.map((page) => page.filter((memory) => memory._id !== id)) };
}
