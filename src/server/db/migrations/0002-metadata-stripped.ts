import { type Kysely, sql } from 'kysely';

/**
 * Whether a memory's stored file is free of location and camera metadata (decision 095). Images
 * always were (they are re-encoded); videos stored before were kept as sent, and are cleaned by
 * the sweep at start, which sets the flag. An integer 0/1, the same in SQLite and PostgreSQL.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('memories')
    .addColumn('metadata_stripped', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update memories set metadata_stripped = 1 where content_type not like 'video/%'`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('memories').dropColumn('metadata_stripped').execute();
}
