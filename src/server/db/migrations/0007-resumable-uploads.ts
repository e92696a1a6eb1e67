import type { Kysely } from 'kysely';

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
    .addColumn('attendee_id', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('touched_at', 'text', (c) => c.notNull())
    .addColumn('memory_id', 'text')
    .execute();
  await db.schema
    .createIndex('resumable_uploads_touched_idx')
    .on('resumable_uploads')
    .column('touched_at')
    .execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('response', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['scope', 'key'])
    .execute();
  await db.schema
    .createIndex('idempotency_keys_created_idx')
    .on('idempotency_keys')
    .column('created_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('idempotency_keys').execute();
  await db.schema.dropTable('resumable_uploads').execute();
}
