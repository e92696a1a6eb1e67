import { type Kysely, sql } from 'kysely';
import { createIndex, newColumns, requiredText, zeroByDefault } from '../migration-helpers.ts';

const speakerColumns = newColumns('speakers', [['schedule_person_id', 'text']]);
const questionColumns = newColumns('questions', [
  // No foreign key: deleting a session sets it to null in the same transaction (decision 210),
  // and SQLite cannot drop a column that one names.
  ['session_id', 'text'],
]);

/**
 * The programme (decision 210): rooms, sessions (times as UTC instants, ISO text that sorts),
 * their speakers in order, the schedule's version (one row, a number that only grows: the
 * schedule's ETag and `scheduleUpdated`), the schedule's person id on speakers (unique, null
 * for speakers who signed up by hand) and the session a question was asked in.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rooms')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .$call(requiredText('name'))
    .addColumn('position', 'integer', zeroByDefault)
    .addColumn('guid', 'text')
    .$call(requiredText('created_at'))
    .execute();
  await createIndex(db, 'rooms_position_idx', 'rooms', ['position', 'id']);

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('guid', 'text')
    .$call(requiredText('title', 'abstract'))
    .addColumn('room_id', 'text', (c) => c.notNull().references('rooms.id'))
    .$call(requiredText('starts_at', 'ends_at'))
    .addColumn('track', 'text')
    .addColumn('cancelled', 'integer', zeroByDefault)
    .addColumn('revision', 'integer', zeroByDefault)
    .$call(requiredText('created_at', 'updated_at'))
    .execute();
  await createIndex(db, 'sessions_guid_idx', 'sessions', ['guid'], { unique: true });
  await createIndex(db, 'sessions_room_starts_idx', 'sessions', ['room_id', 'starts_at']);
  await createIndex(db, 'sessions_starts_idx', 'sessions', ['starts_at', 'id']);

  await db.schema
    .createTable('session_speakers')
    .addColumn('session_id', 'text', (c) =>
      c.notNull().references('sessions.id').onDelete('cascade'),
    )
    .addColumn('speaker_id', 'text', (c) =>
      c.notNull().references('speakers.id').onDelete('cascade'),
    )
    .addColumn('position', 'integer', zeroByDefault)
    .addPrimaryKeyConstraint('session_speakers_pk', ['session_id', 'speaker_id'])
    .execute();
  await createIndex(db, 'session_speakers_speaker_idx', 'session_speakers', [
    'speaker_id',
    'session_id',
  ]);

  await db.schema
    .createTable('schedule_state')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('version', 'integer', zeroByDefault)
    .execute();
  await sql`insert into schedule_state (id, version) values ('schedule', 1)`.execute(db);

  await speakerColumns.add(db);
  await createIndex(db, 'speakers_schedule_person_idx', 'speakers', ['schedule_person_id'], {
    unique: true,
  });
  await questionColumns.add(db);
  await createIndex(db, 'questions_session_idx', 'questions', ['session_id', 'id']);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('questions_session_idx').execute();
  await questionColumns.drop(db);
  await db.schema.dropIndex('speakers_schedule_person_idx').execute();
  await speakerColumns.drop(db);
  for (const table of ['schedule_state', 'session_speakers', 'sessions', 'rooms']) {
    await db.schema.dropTable(table).execute();
  }
}
