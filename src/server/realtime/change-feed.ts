import type pg from 'pg';

export type ChangeTopic = 'memories' | 'speakers';

/**
 * Tells every instance that some data changed, so caches derived from the database (the
 * gallery's and the speakers' ETags) are refreshed everywhere. With PostgreSQL it is LISTEN/NOTIFY on one channel;
 * a single process needs nothing but its own refresh.
 */
export interface ChangeFeed {
  publish(topic: ChangeTopic): Promise<void>;
  subscribe(topic: ChangeTopic, handler: () => void): void;
  close(): Promise<void>;
}

const TOPICS: readonly string[] = ['memories', 'speakers'] satisfies ChangeTopic[];

/** A feed for one process: the instance refreshes itself, so there is nobody else to tell. */
export function localChangeFeed(): ChangeFeed {
  return {
    publish: () => Promise.resolve(),
    subscribe: () => undefined,
    close: () => Promise.resolve(),
  };
}

/** A feed across instances on one PostgreSQL database (and schema, through the channel name). */
export async function postgresChangeFeed(pool: pg.Pool, channel: string): Promise<ChangeFeed> {
  const handlers = new Map<string, (() => void)[]>();
  const listener = await pool.connect();
  listener.on('notification', (message) => {
    if (message.channel !== channel || !message.payload || !TOPICS.includes(message.payload))
      return;
    for (const handler of handlers.get(message.payload) ?? []) handler();
  });
  listener.on('error', () => undefined);
  await listener.query(`listen "${channel}"`);
  return {
    publish: async (topic) => {
      await pool.query('select pg_notify($1, $2)', [channel, topic]);
    },
    subscribe: (topic, handler) => {
      handlers.set(topic, [...(handlers.get(topic) ?? []), handler]);
    },
    close: async () => {
      try {
        await listener.query(`unlisten "${channel}"`);
      } finally {
        listener.release();
      }
    },
  };
}
