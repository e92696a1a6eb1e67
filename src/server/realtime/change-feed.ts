import type pg from 'pg';

export type ChangeTopic = 'memories' | 'speakers' | 'questions' | 'settings';

/**
 * Tells every instance that some data changed, so caches derived from the database (the
 * gallery's, the speakers' and the question lists' ETags) are refreshed everywhere, with an
 * optional detail of what changed (which speaker's questions). With PostgreSQL it is
 * LISTEN/NOTIFY on one channel; a single process needs nothing but its own refresh.
 */
export interface ChangeFeed {
  publish(topic: ChangeTopic, detail?: string): Promise<void>;
  subscribe(topic: ChangeTopic, handler: (detail: string | undefined) => void): void;
  close(): Promise<void>;
}

const TOPICS: readonly string[] = [
  'memories',
  'speakers',
  'questions',
  'settings',
] satisfies ChangeTopic[];

/** A notification's payload: the topic, then a space and the detail when there is one. */
const payloadOf = (topic: ChangeTopic, detail: string | undefined) =>
  detail === undefined ? topic : `${topic} ${detail}`;

function parsePayload(payload: string): { topic: string; detail: string | undefined } {
  const space = payload.indexOf(' ');
  return space === -1
    ? { topic: payload, detail: undefined }
    : { topic: payload.slice(0, space), detail: payload.slice(space + 1) };
}

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
  const handlers = new Map<string, ((detail: string | undefined) => void)[]>();
  const listener = await pool.connect();
  listener.on('notification', (message) => {
    if (message.channel !== channel || !message.payload) return;
    const { topic, detail } = parsePayload(message.payload);
    if (!TOPICS.includes(topic)) return;
    for (const handler of handlers.get(topic) ?? []) handler(detail);
  });
  listener.on('error', () => undefined);
  await listener.query(`listen "${channel}"`);
  return {
    publish: async (topic, detail) => {
      await pool.query('select pg_notify($1, $2)', [channel, payloadOf(topic, detail)]);
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
