import type { Kysely } from 'kysely';
import { createIndex } from '../migration-helpers.ts';

/**
 * The indexes that find an attendee's poll answers and the reports they made without a scan,
 * for their erasure and export (decisions 214 and 215).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createIndex(db, 'poll_responses_attendee_idx', 'poll_responses', [
    'attendee_id',
    'poll_id',
  ]);
  await createIndex(db, 'memory_reports_reporter_idx', 'memory_reports', ['reporter', 'id']);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('memory_reports_reporter_idx').execute();
  await db.schema.dropIndex('poll_responses_attendee_idx').execute();
}
