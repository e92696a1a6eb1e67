import { type Kysely, sql } from 'kysely';
import { speakerNameKey } from '../../lib/speaker-name.ts';
import { createIndex, newColumns, requiredText, zeroByDefault } from '../migration-helpers.ts';

const questionColumns = newColumns('questions', [
  ['votes', 'integer', zeroByDefault],
  ['answered', 'integer', zeroByDefault],
  ['pinned', 'integer', zeroByDefault],
  ['revision', 'integer', zeroByDefault],
  ['status', 'text', (c) => c.notNull().defaultTo('published')],
  ['asker_id', 'text'],
]);

const speakerColumns = newColumns('speakers', [
  ['name_key', 'text'],
  ['secret_hash', 'text'],
]);

/**
 * The live room: votes (one row per attendee and question, and the count on the question),
 * answered and pinned flags, a status for moderation and a revision every change moves (the
 * lists' ETags); unique speaker names through a key (decision 110) and a hashed sign-in secret;
 * the admin's settings; the attendees who joined. Integers 0/1 for flags, the same on SQLite
 * and PostgreSQL.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await questionColumns.add(db);
  await createIndex(db, 'questions_speaker_asker_idx', 'questions', [
    'speaker_id',
    'asker_username',
    'id',
  ]);

  await db.schema
    .createTable('question_votes')
    .addColumn('question_id', 'text', (c) =>
      c.notNull().references('questions.id').onDelete('cascade'),
    )
    .$call(requiredText('attendee_id', 'created_at'))
    .addPrimaryKeyConstraint('question_votes_pk', ['question_id', 'attendee_id'])
    .execute();

  await speakerColumns.add(db);
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
  await createIndex(db, 'speakers_name_key_idx', 'speakers', ['name_key'], { unique: true });

  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .$call(requiredText('value'))
    .execute();

  await db.schema
    .createTable('attendees')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .$call(requiredText('username', 'created_at'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('attendees').execute();
  await db.schema.dropTable('settings').execute();
  await db.schema.dropIndex('speakers_name_key_idx').execute();
  await speakerColumns.drop(db);
  await db.schema.dropTable('question_votes').execute();
  await db.schema.dropIndex('questions_speaker_asker_idx').execute();
  await questionColumns.drop(db);
}
