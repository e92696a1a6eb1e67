import type { Kysely } from 'kysely';

/**
 * Approval of memories: a status (`published`, or `pending` while the admin has not approved it)
 * and a revision every change of the row moves, so the lists' versions (ETags) change when a
 * memory is approved although no row was added or removed. Every memory stored before is
 * published, as it was shown. Text and integer, the same on SQLite and PostgreSQL.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('memories')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('published'))
    .execute();
  await db.schema
    .alterTable('memories')
    .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // The public lists read the published memories newest first; the admin's the pending ones.
  await db.schema
    .createIndex('memories_status_id_idx')
    .on('memories')
    .columns(['status', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('memories_status_id_idx').execute();
  await db.schema.alterTable('memories').dropColumn('revision').execute();
  await db.schema.alterTable('memories').dropColumn('status').execute();
}
