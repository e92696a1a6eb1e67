import type { Kysely } from 'kysely';
import { createIndex, newColumns, requiredText } from '../migration-helpers.ts';

/**
 * An attendee's erasure (decision 214): when it began (`erasing_since`: from then on their token
 * is refused everywhere but to finish it) and when it finished (`erased_at`: refused everywhere);
 * `erasure_files`, the files of rows already erased that are still to be deleted from the media
 * store (a run that could not delete them leaves them for the next one); and the indexes that
 * find an attendee's questions and votes without a scan.
 */
const columns = newColumns('attendees', [
  ['erasing_since', 'text'],
  ['erased_at', 'text'],
]);

export async function up(db: Kysely<unknown>): Promise<void> {
  await columns.add(db);
  await createIndex(db, 'attendees_erasing_since_idx', 'attendees', ['erasing_since']);
  await db.schema
    .createTable('erasure_files')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .$call(requiredText('attendee_id', 'created_at'))
    .execute();
  await createIndex(db, 'erasure_files_attendee_idx', 'erasure_files', ['attendee_id']);
  await createIndex(db, 'questions_asker_id_idx', 'questions', ['asker_id', 'id']);
  await createIndex(db, 'question_votes_attendee_idx', 'question_votes', ['attendee_id']);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('question_votes_attendee_idx').execute();
  await db.schema.dropIndex('questions_asker_id_idx').execute();
  await db.schema.dropTable('erasure_files').execute();
  await db.schema.dropIndex('attendees_erasing_since_idx').execute();
  await columns.drop(db);
}
