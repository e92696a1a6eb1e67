import type { Kysely } from 'kysely';
import { createIndex, requiredText } from '../migration-helpers.ts';

/**
 * Uploads on bad networks (decisions 166-168): one row per resumable (tus) upload, which says
 * whose it is, when a byte last arrived (the sweep of abandoned uploads reads it) and, once it
 * is finished, the memory it became: claiming that column in the memory's own transaction makes
 * a finished upload one memory, however often and wherever its last PATCH is seen. And the
 * `Idempotency-Key`s of memory posts, with the answer each got, kept a day and more.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('resumable_uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .$call(requiredText('attendee_id'))
    .addColumn('size_bytes', 'bigint', (c) => c.notNull())
    .$call(requiredText('created_at', 'touched_at'))
    .addColumn('memory_id', 'text')
    .execute();
  await createIndex(db, 'resumable_uploads_touched_idx', 'resumable_uploads', ['touched_at']);

  await db.schema
    .createTable('idempotency_keys')
    .$call(requiredText('scope', 'key', 'response', 'created_at'))
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['scope', 'key'])
    .execute();
  await createIndex(db, 'idempotency_keys_created_idx', 'idempotency_keys', ['created_at']);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('idempotency_keys').execute();
  await db.schema.dropTable('resumable_uploads').execute();
}
