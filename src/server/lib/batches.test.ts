import { describe, expect, it } from 'vitest';
import { batchesByKey } from './batches.ts';

interface Item {
  person: string;
  value: number;
}

/** A batcher whose batches wait until `release` is called, recording what each one took. */
function recorded(max = 100) {
  const batches: { key: string; items: Item[] }[] = [];
  const gates: (() => void)[] = [];
  const submit = batchesByKey<Item, string>({
    max,
    distinct: (item) => item.person,
    run: async (key, items) => {
      batches.push({ key, items });
      await new Promise<void>((resolve) => gates.push(resolve));
      if (items.some((item) => item.value < 0)) throw new Error('refused');
      return items.map((item) => `${key}:${item.person}:${item.value}`);
    },
  });
  const release = async () => {
    await Promise.resolve();
    gates.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { submit, batches, release };
}

describe('batchesByKey', () => {
  it('runs a lone item at once, and what comes meanwhile in one batch after it', async () => {
    const { submit, batches, release } = recorded();
    const first = submit('poll', { person: 'a', value: 1 });
    expect(batches).toHaveLength(1);
    const rest = [2, 3, 4].map((value) => submit('poll', { person: `p${value}`, value }));
    await release();
    expect(batches.map((batch) => batch.items.length)).toEqual([1, 3]);
    await release();
    expect(await first).toBe('poll:a:1');
    expect(await Promise.all(rest)).toEqual(['poll:p2:2', 'poll:p3:3', 'poll:p4:4']);
  });

  it('keeps each key apart', async () => {
    const { submit, batches, release } = recorded();
    const one = submit('one', { person: 'a', value: 1 });
    const two = submit('two', { person: 'a', value: 2 });
    expect(batches.map((batch) => batch.key)).toEqual(['one', 'two']);
    await release();
    await release();
    expect([await one, await two]).toEqual(['one:a:1', 'two:a:2']);
  });

  it('puts one person’s items in turn in separate batches, in their order', async () => {
    const { submit, batches, release } = recorded();
    const results = [
      submit('poll', { person: 'z', value: 0 }),
      submit('poll', { person: 'a', value: 1 }),
      submit('poll', { person: 'b', value: 1 }),
      submit('poll', { person: 'a', value: 2 }),
      submit('poll', { person: 'a', value: 3 }),
    ];
    for (let i = 0; i < 4; i += 1) await release();
    expect(
      batches.map((batch) => batch.items.map((item) => `${item.person}${item.value}`)),
    ).toEqual([['z0'], ['a1', 'b1'], ['a2'], ['a3']]);
    expect(await Promise.all(results)).toHaveLength(5);
  });

  it('takes at most `max` items a batch', async () => {
    const { submit, batches, release } = recorded(2);
    const results = [0, 1, 2, 3, 4].map((value) => submit('poll', { person: `p${value}`, value }));
    for (let i = 0; i < 3; i += 1) await release();
    expect(batches.map((batch) => batch.items.length)).toEqual([1, 2, 2]);
    expect(await Promise.all(results)).toHaveLength(5);
  });

  it('fails every item of a failed batch, and goes on with the next', async () => {
    const { submit, release } = recorded();
    const first = submit('poll', { person: 'a', value: 1 });
    const failing = [
      submit('poll', { person: 'b', value: -1 }),
      submit('poll', { person: 'c', value: 1 }),
    ];
    const outcomes = Promise.allSettled(failing);
    const after = submit('poll', { person: 'b', value: 2 });
    await release();
    await release();
    await release();
    expect(await first).toBe('poll:a:1');
    expect((await outcomes).map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    expect(await after).toBe('poll:b:2');
  });

  it('forgets a key once its batches are done', async () => {
    const { submit, batches, release } = recorded();
    const first = submit('poll', { person: 'a', value: 1 });
    await release();
    await first;
    const again = submit('poll', { person: 'a', value: 2 });
    expect(batches).toHaveLength(2);
    await release();
    expect(await again).toBe('poll:a:2');
  });

  it('lets every item share a batch when none names itself distinct', async () => {
    let runs = 0;
    const read = batchesByKey<null, number>({
      max: Number.POSITIVE_INFINITY,
      run: async (_key, readers) => {
        runs += 1;
        await new Promise((resolve) => setImmediate(resolve));
        return readers.map(() => runs);
      },
    });
    const answers = await Promise.all(Array.from({ length: 10 }, () => read('poll', null)));
    // The first read alone, the nine asked while it was under way in one after it.
    expect(answers).toEqual([1, 2, 2, 2, 2, 2, 2, 2, 2, 2]);
  });
});
