import { describe, expect, it } from 'vitest';
import { memoryFixture } from '../../../../tests/support/memory-fixture.ts';
import { mergeMemories, removeMemory } from './memory-cache.ts';

const memory = (id: string) => memoryFixture(id);

// Ids sort by time; these stand for UUIDv7s, oldest "a" to newest "f".
const pages = (...lists: string[][]) => ({
  pages: lists.map((ids) => ids.map(memory)),
  pageParams: lists.map((_, i) => (i === 0 ? undefined : `p${i}`)),
});
const ids = (data: ReturnType<typeof pages> | undefined) =>
  data?.pages.map((page) => page.map((m) => m._id));

describe('mergeMemories', () => {
  it('puts a new memory in its place in the first page', () => {
    expect(ids(mergeMemories(pages(['e', 'c'], ['b', 'a']), [memory('f')]))).toEqual([
      ['f', 'e', 'c'],
      ['b', 'a'],
    ]);
    expect(ids(mergeMemories(pages(['e', 'c']), [memory('d')]))).toEqual([['e', 'd', 'c']]);
  });

  it('never adds a memory twice', () => {
    const data = pages(['e', 'c'], ['b', 'a']);
    expect(mergeMemories(data, [memory('e'), memory('b')])).toBe(data);
    expect(ids(mergeMemories(data, [memory('f'), memory('f'), memory('c')]))).toEqual([
      ['f', 'e', 'c'],
      ['b', 'a'],
    ]);
  });

  it('leaves a gallery that has not loaded yet alone', () => {
    expect(mergeMemories(undefined, [memory('a')])).toBeUndefined();
  });
});

describe('removeMemory', () => {
  it('takes the memory out of whichever page holds it', () => {
    expect(ids(removeMemory(pages(['e', 'c'], ['b', 'a']), 'b'))).toEqual([['e', 'c'], ['a']]);
    const data = pages(['e']);
    expect(removeMemory(data, 'x')).toBe(data);
  });
});
