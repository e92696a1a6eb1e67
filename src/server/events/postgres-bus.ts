import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { ListenConnections } from '../db/connect.ts';
import type { DomainEvent } from './domain-events.ts';
import type { BusReceiver, EventBus } from './events.ts';

/**
 * PostgreSQL refuses a NOTIFY payload of 8000 bytes or more. A message is its header (the
 * sending instance, the part's index and the number of parts) and a part of the event's JSON.
 */
const MAX_PAYLOAD_BYTES = 7999;
/** The longest header: an instance name, and two numbers far beyond any event's parts. */
const MAX_HEADER_BYTES = 40;
/**
 * Code units of JSON per part of a large event: UTF-8 takes at most 3 bytes per UTF-16 unit (a
 * pair of surrogates takes 4 for 2), so a part of this many units always fits.
 */
const PART_UNITS = Math.floor((MAX_PAYLOAD_BYTES - MAX_HEADER_BYTES) / 3);

/**
 * An event's JSON in parts that each fit a NOTIFY: one when it fits (every event but the largest
 * speaker sign-ups and captions), else parts of `PART_UNITS` code units, never splitting a
 * character's surrogate pair.
 */
export function partsOf(json: string): string[] {
  if (
    json.length * 3 <= MAX_PAYLOAD_BYTES - MAX_HEADER_BYTES ||
    Buffer.byteLength(json) <= MAX_PAYLOAD_BYTES - MAX_HEADER_BYTES
  ) {
    return [json];
  }
  const parts: string[] = [];
  for (let start = 0; start < json.length;) {
    let end = Math.min(json.length, start + PART_UNITS);
    const last = json.charCodeAt(end - 1);
    if (end < json.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    parts.push(json.slice(start, end));
    start = end;
  }
  return parts;
}

/**
 * The domain events between instances on one PostgreSQL database (and schema, through the
 * channel name): LISTEN/NOTIFY on one channel, one LISTEN connection per instance. Every
 * instance hears every other instance's events, and not its own (they reached its subscribers
 * when they were published). An event too large for one NOTIFY is sent in parts, all in one
 * statement: one transaction, so they arrive together and in order, or not at all.
 *
 * The LISTEN connection is its own (not a pool slot); when the database drops it (a restart, a
 * failover), it is opened again with backoff, and since notifications sent meanwhile are lost,
 * the receiver is told some were missed (decision 125).
 */
export async function postgresEventBus(
  pool: pg.Pool,
  connections: ListenConnections,
  channel: string,
  receiver: BusReceiver,
  onError: (error: unknown) => void,
): Promise<EventBus> {
  // Names this instance in its messages, to know its own when they come back.
  const instance = randomBytes(9).toString('base64url');
  /** A large event's parts received so far, per sending instance. */
  const partial = new Map<string, string[]>();
  let listener: Awaited<ReturnType<ListenConnections['connect']>> | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const receive = (payload: string) => {
    const first = payload.indexOf(' ');
    const second = payload.indexOf(' ', first + 1);
    if (first === -1 || second === -1) return;
    const sender = payload.slice(0, first);
    if (sender === instance) return;
    const [index = -1, count = 0] = payload
      .slice(first + 1, second)
      .split('/')
      .map(Number);
    if (!Number.isInteger(index) || !Number.isInteger(count) || index < 0 || index >= count) {
      return;
    }
    const json = payload.slice(second + 1);
    let whole = json;
    if (count > 1) {
      const parts = index === 0 ? [] : partial.get(sender);
      if (!parts || parts.length !== index) {
        partial.delete(sender);
        return;
      }
      parts.push(json);
      if (index < count - 1) {
        partial.set(sender, parts);
        return;
      }
      partial.delete(sender);
      whole = parts.join('');
    }
    let event: DomainEvent;
    try {
      event = JSON.parse(whole) as DomainEvent;
    } catch (error) {
      onError(error);
      return;
    }
    receiver.received(event);
  };

  const listen = async () => {
    const client = await connections.connect();
    client.on('notification', (message) => {
      if (message.channel === channel && message.payload) receive(message.payload);
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
    // A large event cut off by the drop is not completed by what comes next.
    partial.clear();
    retry = setTimeout(() => {
      listen().then(
        () => {
          // What was notified while nobody listened is unknown: everything may have changed.
          receiver.missed();
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
    send: async (event) => {
      const parts = partsOf(JSON.stringify(event));
      // One statement: the pool's one connection sends this instance's events in order.
      const calls = parts.map((_, index) => `pg_notify($1, $${index + 2})`).join(', ');
      await pool.query(`select ${calls}`, [
        channel,
        ...parts.map((part, index) => `${instance} ${index}/${parts.length} ${part}`),
      ]);
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
