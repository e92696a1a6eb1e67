import { type InfiniteData, QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { Memory } from '../../../../shared/schemas/memory.ts';
import { memoryFixture, memoryId } from '../../../../../tests/support/memory-fixture.ts';
import {
  addToAdminMedia,
  adminMediaQueryOptions,
  matchesSearch,
  removeFromAdminMedia,
} from './admin-media.ts';

let counter = 0;
const memory = (username: string, text: string) => {
  counter += 1;
  return memoryFixture(memoryId(counter), { username, text });
};

type Pages = InfiniteData<Memory[], string | undefined>;

function cacheWith(lists: Record<string, Memory[][]>): QueryClient {
  const client = new QueryClient();
  for (const [search, pages] of Object.entries(lists)) {
    client.setQueryData<Pages>(adminMediaQueryOptions('token', search).queryKey, {
      pages,
      pageParams: pages.map((_, index) => (index === 0 ? undefined : `before-${index}`)),
    });
  }
  return client;
}

const names = (client: QueryClient, search: string) =>
  client
    .getQueryData<Pages>(adminMediaQueryOptions('token', search).queryKey)
    ?.pages.map((page) => page.map((m) => m.username));

describe('admin media cache', () => {
  it('matches a search the way the server does', () => {
    const m = memory('Ada_Lovelace', 'Keynote SELFIE');
    expect(matchesSearch(m, '')).toBe(true);
    expect(matchesSearch(m, 'ada_')).toBe(true);
    expect(matchesSearch(m, 'selfie')).toBe(true);
    expect(matchesSearch(m, 'grace')).toBe(false);
  });

  it('adds a new memory on top of every list it matches, once', () => {
    const grace = memory('grace', 'coffee');
    const client = cacheWith({ '': [[grace]], ada: [[]], grace: [[grace]] });
    const ada = memory('ada', 'selfie');
    addToAdminMedia(client, ada);
    addToAdminMedia(client, ada);
    expect(names(client, '')).toEqual([['ada', 'grace']]);
    expect(names(client, 'ada')).toEqual([['ada']]);
    expect(names(client, 'grace')).toEqual([['grace']]);
  });

  it('keys a search case-insensitively, so a new memory reaches "ADA" too', () => {
    const client = cacheWith({ ADA: [[]] });
    addToAdminMedia(client, memory('ada', 'x'));
    expect(names(client, 'ada')).toEqual([['ada']]);
  });

  it('removes a deleted memory from every page of every list', () => {
    const a = memory('a', 'one');
    const b = memory('b', 'two');
    const c = memory('c', 'three');
    const client = cacheWith({ '': [[c, b], [a]], t: [[c, b]] });
    removeFromAdminMedia(client, b._id);
    removeFromAdminMedia(client, 'unknown');
    expect(names(client, '')).toEqual([['c'], ['a']]);
    expect(names(client, 't')).toEqual([['c']]);
  });
});
