import type { Kysely } from 'kysely';
import { createIndex } from '../migration-helpers.ts';

/**
 * Who posted a memory: the attendee id of the token sent with the post (decision 142), so that
 * attendee may delete it. Null for memories posted without a token (and for every memory stored
 * before): those have no owner and only the admin deletes them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('memories').addColumn('owner_id', 'text').execute();
  await createIndex(db, 'memories_owner_id_idx', 'memories', ['owner_id', 'id']);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('memories_owner_id_idx').execute();
  await db.schema.alterTable('memories').dropColumn('owner_id').execute();
}
