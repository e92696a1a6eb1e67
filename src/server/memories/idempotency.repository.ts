import { type Executor, rowsWritten, wroteAny } from '../db/queries.ts';

/** What a key keeps of the first post sent with it. */
export interface IdempotentEntry {
  /** The answer the first post got. */
  response: unknown;
  /** The first post's fingerprint; null for a key stored before fingerprints were kept. */
  fingerprint: string | null;
}

/** What the first post `client` sent with this key got, if it is still kept. */
export async function findIdempotentEntry(
  db: Executor,
  client: string,
  key: string,
): Promise<IdempotentEntry | undefined> {
  const row = await db
    .selectFrom('idempotency_keys')
    .select(['response', 'fingerprint'])
    .where('client', '=', client)
    .where('key', '=', key)
    .executeTakeFirst();
  return row && { response: JSON.parse(row.response) as unknown, fingerprint: row.fingerprint };
}

/**
 * Keeps a post's answer and fingerprint under its client's key, in the post's transaction.
 * Answers false when another post of that client with the same key got there first (the caller
 * then rolls its own post back).
 */
export function saveIdempotentEntry(
  trx: Executor,
  entry: { client: string; key: string; fingerprint: string; response: unknown; createdAt: string },
): Promise<boolean> {
  return wroteAny(
    trx
      .insertInto('idempotency_keys')
      .values({
        client: entry.client,
        key: entry.key,
        response: JSON.stringify(entry.response),
        fingerprint: entry.fingerprint,
        created_at: entry.createdAt,
      })
      .onConflict((oc) => oc.columns(['client', 'key']).doNothing()),
  );
}

/** Forgets the keys saved before `cutoff` (an ISO time); answers how many. */
export function deleteIdempotencyKeysBefore(db: Executor, cutoff: string): Promise<number> {
  return rowsWritten(db.deleteFrom('idempotency_keys').where('created_at', '<', cutoff));
}

/** Forgets every key one client saved (an erased attendee's: their answers name their posts). */
export function deleteIdempotencyKeysOf(db: Executor, client: string): Promise<number> {
  return rowsWritten(db.deleteFrom('idempotency_keys').where('client', '=', client));
}

/** Forgets every key and the answer kept with it (a purge: the answers name attendees). */
export function deleteAllIdempotencyKeys(db: Executor): Promise<number> {
  return rowsWritten(db.deleteFrom('idempotency_keys'));
}
