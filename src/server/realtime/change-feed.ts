import type pg from 'pg';
import type { ListenConnections } from '../db/connect.ts';

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

/**
 * A feed across instances on one PostgreSQL database (and schema, through the channel name). The
 * LISTEN connection is its own (not a pool slot); when the database drops it (a restart, a
 * failover), it is opened again with backoff, and since notifications sent meanwhile are lost,
 * every topic is then treated as changed.
 */
export async function postgresChangeFeed(
  pool: pg.Pool,
  connections: ListenConnections,
  channel: string,
  onError: (error: unknown) => void,
): Promise<ChangeFeed> {
  const handlers = new Map<string, ((detail: string | undefined) => void)[]>();
  let listener: Awaited<ReturnType<ListenConnections['connect']>> | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const listen = async () => {
    const client = await connections.connect();
    client.on('notification', (message) => {
      if (message.channel !== channel || !message.payload) return;
      const { topic, detail } = parsePayload(message.payload);
      if (!TOPICS.includes(topic)) return;
      for (const handler of handlers.get(topic) ?? []) handler(detail);
    });
    client.once('end', () => {
      if (listener !== client || closed) return;
      listener = undefined;
      reconnect();
    });
    try {
      await client.query(`listen "${channel}"`);
    } catch (error) {
      client.release();
      throw error;
    }
    listener = client;
  };
  const reconnect = () => {
    if (closed) return;
    retry = setTimeout(() => {
      listen().then(
        () => {
          // What was notified while nobody listened is unknown: everything may have changed.
          for (const list of handlers.values()) for (const handler of list) handler(undefined);
        },
        (error: unknown) => {
          onError(error);
          reconnect();
        },
      );
    }, 0);
  };

  await listen();
  return {
    publish: async (topic, detail) => {
      await pool.query('select pg_notify($1, $2)', [channel, payloadOf(topic, detail)]);
    },
    subscribe: (topic, handler) => {
      handlers.set(topic, [...(handlers.get(topic) ?? []), handler]);
    },
    close: async () => {
      closed = true;
      clearTimeout(retry);
      const client = listener;
      listener = undefined;
      if (!client) return;
      try {
        await client.query(`unlisten "${channel}"`);
      } catch {
        // The connection is gone already.
      } finally {
        client.release();
      }
    },
  };
}
