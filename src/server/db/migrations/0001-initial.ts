import type { Kysely } from 'kysely';
import { createIndex, requiredText } from '../migration-helpers.ts';

// Portable between SQLite and PostgreSQL: text ids made in code, no dialect-only types or defaults.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('speakers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .$call(requiredText('name'))
    .addColumn('username', 'text', (c) => c.notNull().unique())
    .$call(requiredText('stack', 'bio', 'picture_key'))
    .addColumn('avatar_key', 'text')
    .$call(requiredText('message', 'created_at'))
    .execute();

  await db.schema
    .createTable('questions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('speaker_id', 'text', (c) =>
      c.notNull().references('speakers.id').onDelete('cascade'),
    )
    .$call(requiredText('speaker_name', 'asker_username', 'question', 'created_at'))
    .execute();
  await createIndex(db, 'questions_speaker_id_idx', 'questions', ['speaker_id', 'id']);

  await db.schema
    .createTable('memories')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .$call(requiredText('post_id', 'username', 'text', 'content_type'))
    .addColumn('media_key', 'text', (c) => c.notNull().unique())
    .addColumn('thumbnail_key', 'text')
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('size_bytes', 'bigint', (c) => c.notNull())
    .$call(requiredText('created_at'))
    .execute();
  await createIndex(db, 'memories_post_id_idx', 'memories', ['post_id']);

  await db.schema
    .createTable('admin_audit')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .$call(requiredText('admin_username', 'action', 'target_id', 'details', 'created_at'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['admin_audit', 'memories', 'questions', 'speakers']) {
    await db.schema.dropTable(table).execute();
  }
}
