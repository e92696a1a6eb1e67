import { type Kysely, sql } from 'kysely';
import { createIndex, newColumns, zeroByDefault } from '../migration-helpers.ts';

/** Added after `original_key` (which the photo masters may have added already). */
const memoryColumns = newColumns('memories', [
  ['poster_key', 'text'],
  ['processing', 'integer', zeroByDefault],
  ['render_owner', 'text'],
  ['render_lease_until', 'text'],
]);

/**
 * Video posters and playable renditions (decision 154): the poster's key, whether the rendition
 * is still being made (0/1), and who is making it until when (a lease, so that one instance
 * makes it, and another takes over when that one stopped). `original_key` is the file as stored
 * (metadata stripped), which "Download" serves and a rendition never replaces; the photo masters
 * add the same column, so it is added here only when it is not there yet.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const tables = (await db.introspection.getTables()).filter((table) => table.name === 'memories');
  // PostgreSQL lists the tables of every schema: the one migrated is the current one.
  let memories = tables[0];
  if (tables.some((table) => table.schema !== undefined)) {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
    memories = tables.find((table) => table.schema === rows[0]?.schema);
  }
  if (!memories?.columns.some((column) => column.name === 'original_key')) {
    await db.schema.alterTable('memories').addColumn('original_key', 'text').execute();
  }
  await memoryColumns.add(db);
  await createIndex(db, 'memories_processing_idx', 'memories', ['processing', 'id']);
  // Videos stored before keep their file as it is, as their original, and get their poster and
  // rendition from the next start.
  await sql`update memories set original_key = media_key, processing = 1 where content_type like 'video/%'`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('memories_processing_idx').execute();
  await memoryColumns.drop(db);
}
