import type { Kysely } from 'kysely';
import { createIndex, requiredText, zeroByDefault } from '../migration-helpers.ts';

/**
 * Live polls (decision 220): the poll, with its running figures (`voters`, and a `revision` every
 * change moves, for the lists' ETags); its counters (`poll_counts`: per option, rating value,
 * word or ranked option, moved in the transaction of each answer, so results never scan the
 * answers); one response per attendee and poll (the pair is the key). `session_id` is null for
 * an event-wide poll. JSON lists are text; flags and counters integers: the same on SQLite and
 * PostgreSQL.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('polls')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('session_id', 'text')
    .$call(requiredText('title', 'type', 'options', 'state', 'created_at'))
    .addColumn('max_rating', 'integer', (c) => c.notNull().defaultTo(5))
    .addColumn('results_visible', 'integer', zeroByDefault)
    .addColumn('voters', 'integer', zeroByDefault)
    .addColumn('revision', 'integer', zeroByDefault)
    .addColumn('correct_option_ids', 'text')
    .addColumn('opened_at', 'text')
    .execute();
  await createIndex(db, 'polls_session_idx', 'polls', ['session_id', 'id']);

  await db.schema
    .createTable('poll_counts')
    .addColumn('poll_id', 'text', (c) => c.notNull().references('polls.id').onDelete('cascade'))
    .$call(requiredText('key'))
    .addColumn('count', 'integer', zeroByDefault)
    .addColumn('hidden', 'integer', zeroByDefault)
    .addPrimaryKeyConstraint('poll_counts_pk', ['poll_id', 'key'])
    .execute();
  await createIndex(db, 'poll_counts_top_idx', 'poll_counts', ['poll_id', 'count']);

  await db.schema
    .createTable('poll_responses')
    .addColumn('poll_id', 'text', (c) => c.notNull().references('polls.id').onDelete('cascade'))
    .$call(requiredText('attendee_id', 'id', 'username', 'answer', 'answered_at'))
    .addColumn('points', 'integer', zeroByDefault)
    .addColumn('hidden', 'integer', zeroByDefault)
    .addPrimaryKeyConstraint('poll_responses_pk', ['poll_id', 'attendee_id'])
    .execute();
  await createIndex(db, 'poll_responses_id_idx', 'poll_responses', ['poll_id', 'id']);
  await createIndex(db, 'poll_responses_points_idx', 'poll_responses', ['poll_id', 'points']);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('poll_responses').execute();
  await db.schema.dropTable('poll_counts').execute();
  await db.schema.dropTable('polls').execute();
}
