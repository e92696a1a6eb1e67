import { type Kysely, sql } from 'kysely';

/** What a key's client starts with when it is an attendee (`requesterKey`). */
const ATTENDEE_PREFIX = 'attendee:';

/**
 * `Idempotency-Key`s belong to the client that sent them (decision 193): the column `scope` (an
 * attendee id, or '' shared by every post without a token) becomes `client`, the requester a
 * rate limit counts (the attendee, else the client id at its address, else the connection), and
 * one client holds one key once: the primary key is (client, key). Keys of attendees are kept,
 * now named as their client; those sent without a token cannot be told apart by client and are
 * forgotten (a repeat of one makes its post again, as a key 48 hours old would). `fingerprint`,
 * the SHA-256 of the post a key answered, tells a repeat from another post with the same key;
 * keys stored before have none and answer any repeat, as they did.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`delete from idempotency_keys where scope = ''`.execute(db);
  await sql`update idempotency_keys set scope = ${ATTENDEE_PREFIX} || scope`.execute(db);
  await db.schema.alterTable('idempotency_keys').renameColumn('scope', 'client').execute();
  await db.schema.alterTable('idempotency_keys').addColumn('fingerprint', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('idempotency_keys').dropColumn('fingerprint').execute();
  await db.schema.alterTable('idempotency_keys').renameColumn('client', 'scope').execute();
  await sql`delete from idempotency_keys
    where substr(scope, 1, ${ATTENDEE_PREFIX.length}) <> ${ATTENDEE_PREFIX}`.execute(db);
  await sql`update idempotency_keys
    set scope = substr(scope, ${ATTENDEE_PREFIX.length + 1})`.execute(db);
}
