import { type Kysely, sql } from 'kysely';
import { speakerNameKey } from '../../speakers/speaker-name.ts';

/**
 * The live room: votes (one row per attendee and question, and the count on the question),
 * answered and pinned flags, a status for moderation and a revision every change moves (the
 * lists' ETags); unique speaker names through a key (decision 110) and a hashed sign-in secret;
 * the admin's settings; the attendees who joined. Integers 0/1 for flags, the same on SQLite
 * and PostgreSQL.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of ['votes', 'answered', 'pinned', 'revision']) {
    await db.schema
      .alterTable('questions')
      .addColumn(column, 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  }
  await db.schema
    .alterTable('questions')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('published'))
    .execute();
  await db.schema.alterTable('questions').addColumn('asker_id', 'text').execute();
  await db.schema
    .createIndex('questions_speaker_asker_idx')
    .on('questions')
    .columns(['speaker_id', 'asker_username', 'id'])
    .execute();

  await db.schema
    .createTable('question_votes')
    .addColumn('question_id', 'text', (c) =>
      c.notNull().references('questions.id').onDelete('cascade'),
    )
    .addColumn('attendee_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('question_votes_pk', ['question_id', 'attendee_id'])
    .execute();

  await db.schema.alterTable('speakers').addColumn('name_key', 'text').execute();
  await db.schema.alterTable('speakers').addColumn('secret_hash', 'text').execute();
  // Speakers stored before names were unique keep their rows: a later one with the same key
  // gets its id appended, so the index can be made and nobody is lost.
  const speakers = await sql<{ id: string; name: string }>`
    select id, name from speakers order by id`.execute(db);
  const seen = new Set<string>();
  for (const { id, name } of speakers.rows) {
    let key = speakerNameKey(name);
    if (seen.has(key)) key = `${key}#${id}`;
    seen.add(key);
    await sql`update speakers set name_key = ${key} where id = ${id}`.execute(db);
  }
  await db.schema
    .createIndex('speakers_name_key_idx')
    .on('speakers')
    .column('name_key')
    .unique()
    .execute();

  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('attendees')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('attendees').execute();
  await db.schema.dropTable('settings').execute();
  await db.schema.dropIndex('speakers_name_key_idx').execute();
  await db.schema.alterTable('speakers').dropColumn('secret_hash').execute();
  await db.schema.alterTable('speakers').dropColumn('name_key').execute();
  await db.schema.dropTable('question_votes').execute();
  await db.schema.dropIndex('questions_speaker_asker_idx').execute();
  for (const column of ['asker_id', 'status', 'revision', 'pinned', 'answered', 'votes']) {
    await db.schema.alterTable('questions').dropColumn(column).execute();
  }
}
