import { type Executor, rowsWritten, wroteAny } from '../db/queries.ts';

/** The answer the first post with this key got, if it is still kept. */
export async function findIdempotentAnswer(
  db: Executor,
  scope: string,
  key: string,
): Promise<unknown> {
  const row = await db
    .selectFrom('idempotency_keys')
    .select('response')
    .where('scope', '=', scope)
    .where('key', '=', key)
    .executeTakeFirst();
  return row ? (JSON.parse(row.response) as unknown) : undefined;
}

/**
 * Keeps a post's answer under its key, in the post's transaction. Answers false when another
 * post with the same key got there first (the caller then rolls its own post back).
 */
export function saveIdempotentAnswer(
  trx: Executor,
  entry: { scope: string; key: string; response: unknown; createdAt: string },
): Promise<boolean> {
  return wroteAny(
    trx
      .insertInto('idempotency_keys')
      .values({
        scope: entry.scope,
        key: entry.key,
        response: JSON.stringify(entry.response),
        created_at: entry.createdAt,
      })
      .onConflict((oc) => oc.columns(['scope', 'key']).doNothing()),
  );
}

/** Forgets the keys saved before `cutoff` (an ISO time); answers how many. */
export function deleteIdempotencyKeysBefore(db: Executor, cutoff: string): Promise<number> {
  return rowsWritten(db.deleteFrom('idempotency_keys').where('created_at', '<', cutoff));
}
