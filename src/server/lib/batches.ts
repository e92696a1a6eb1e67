interface Waiting<Item, Result> {
  item: Item;
  resolve: (result: Result) => void;
  reject: (error: unknown) => void;
}

export interface BatchOptions<Item, Result> {
  /** Does the work of one batch, answering each item's result in the items' order. */
  run: (key: string, items: Item[]) => Promise<Result[]>;
  /** The most items one batch takes. */
  max: number;
  /** Items that must not share a batch (the same person's) name the same here; else any can. */
  distinct?: (item: Item) => string;
}

/**
 * Work done in batches per key, one batch of a key at a time: an item that comes while its
 * key's batch is being done waits for the next one, which takes every item waiting by then. So
 * alone an item goes at once, and under load many go in one call, as many as came during the
 * last one (at most `max`). Items that name the same `distinct` value go in turn, one per batch,
 * in the order they came. A batch that fails fails each of its items.
 */
export function batchesByKey<Item, Result>({
  run,
  max,
  distinct,
}: BatchOptions<Item, Result>): (key: string, item: Item) => Promise<Result> {
  /** The items waiting per key; a key is here while a batch of it is being done. */
  const queues = new Map<string, Waiting<Item, Result>[]>();

  const drain = async (key: string, queue: Waiting<Item, Result>[]) => {
    while (queue.length > 0) {
      const batch: Waiting<Item, Result>[] = [];
      const later: Waiting<Item, Result>[] = [];
      const taken = new Set<string>();
      for (const waiting of queue) {
        const name = distinct?.(waiting.item);
        if (batch.length < max && (name === undefined || !taken.has(name))) {
          if (name !== undefined) taken.add(name);
          batch.push(waiting);
        } else {
          later.push(waiting);
        }
      }
      queue.splice(0, queue.length, ...later);
      try {
        const results = await run(
          key,
          batch.map(({ item }) => item),
        );
        batch.forEach(({ resolve }, index) => {
          resolve(results[index] as Result);
        });
      } catch (error) {
        for (const { reject } of batch) reject(error);
      }
    }
    queues.delete(key);
  };

  return (key, item) =>
    new Promise<Result>((resolve, reject) => {
      const waiting = { item, resolve, reject };
      const queue = queues.get(key);
      if (queue) {
        queue.push(waiting);
        return;
      }
      const started = [waiting];
      queues.set(key, started);
      void drain(key, started);
    });
}
