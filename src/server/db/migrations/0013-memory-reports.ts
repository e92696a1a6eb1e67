import type { Kysely } from 'kysely';
import { createIndex, newColumns, requiredText, zeroByDefault } from '../migration-helpers.ts';

/** The people whose reports on a memory are open (not yet dismissed by the admin keeping it). */
const memoryColumns = newColumns('memories', [['open_reports', 'integer', zeroByDefault]]);

/**
 * Reports of memories (decision 216): one row per memory and reporter (an attendee's id, or a
 * salted hash of an anonymous reporter's address, never the address), so that the same person
 * reporting twice counts once, and the count on the memory moves in the same transaction as the
 * row. A report the admin dismissed (by keeping the memory) keeps its row with `dismissed_at`,
 * so its reporter does not count again. Reports go with their memory.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await memoryColumns.add(db);
  await db.schema
    .createTable('memory_reports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('memory_id', 'text', (c) =>
      c.notNull().references('memories.id').onDelete('cascade'),
    )
    .$call(requiredText('reporter', 'category', 'reason', 'created_at'))
    .addColumn('dismissed_at', 'text')
    .execute();
  await createIndex(
    db,
    'memory_reports_memory_reporter_idx',
    'memory_reports',
    ['memory_id', 'reporter'],
    { unique: true },
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('memory_reports').execute();
  await memoryColumns.drop(db);
}
