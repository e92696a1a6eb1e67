import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { removeFromCachedLists } from './cached-lists.ts';

interface Item {
  _id: string;
}

/** A read the test answers when it chooses: the server wrote it before the removal. */
function deferredRead() {
  let answer: (items: Item[]) => void = () => undefined;
  const promise = new Promise<Item[]>((resolve) => {
    answer = resolve;
  });
  return { promise, answer };
}

describe('removeFromCachedLists', () => {
  it('keeps an item removed while a read that still holds it is in flight', async () => {
    const client = new QueryClient();
    const queryKey = ['items', 'all'];
    client.setQueryData<Item[]>(queryKey, [{ _id: 'a' }, { _id: 'b' }]);
    const read = deferredRead();
    const refetch = client.query({ queryKey, queryFn: () => read.promise, staleTime: 0 });

    removeFromCachedLists<Item>(client, ['items'], (item) => item._id === 'a');
    read.answer([{ _id: 'a' }, { _id: 'b' }]);
    await refetch.catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 0));

    expect(client.getQueryData<Item[]>(queryKey)).toEqual([{ _id: 'b' }]);
    expect(client.getQueryState(queryKey)?.fetchStatus).toBe('idle');
  });

  it('lets a list that is loading for the first time load', async () => {
    const client = new QueryClient();
    const queryKey = ['items', 'all'];
    const read = deferredRead();
    const first = client.query({ queryKey, queryFn: () => read.promise });

    removeFromCachedLists<Item>(client, ['items'], (item) => item._id === 'a');
    read.answer([{ _id: 'b' }]);

    await expect(first).resolves.toEqual([{ _id: 'b' }]);
    expect(client.getQueryData<Item[]>(queryKey)).toEqual([{ _id: 'b' }]);
  });
});
