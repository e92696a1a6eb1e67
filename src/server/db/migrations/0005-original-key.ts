import { type Kysely, sql } from 'kysely';

/**
 * The key of a memory's full-resolution, metadata-free master: what "Download" and the ZIP
 * serve (decision 149). Memories stored before have none apart from their display file (the
 * picture as sent was never kept), so their master is that file; videos keep their stored file.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('memories').addColumn('original_key', 'text').execute();
  await sql`update memories set original_key = media_key`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('memories').dropColumn('original_key').execute();
}
