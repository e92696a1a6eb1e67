import type { Kysely } from 'kysely';
import { createIndex, newColumns, zeroByDefault } from '../migration-helpers.ts';

const memoryColumns = newColumns('memories', [
  ['status', 'text', (c) => c.notNull().defaultTo('published')],
  ['revision', 'integer', zeroByDefault],
]);

/**
 * Approval of memories: a status (`published`, or `pending` while the admin has not approved it)
 * and a revision every change of the row moves, so the lists' versions (ETags) change when a
 * memory is approved although no row was added or removed. Every memory stored before is
 * published, as it was shown. Text and integer, the same on SQLite and PostgreSQL.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await memoryColumns.add(db);
  // The public lists read the published memories newest first; the admin's the pending ones.
  await createIndex(db, 'memories_status_id_idx', 'memories', ['status', 'id']);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('memories_status_id_idx').execute();
  await memoryColumns.drop(db);
}
