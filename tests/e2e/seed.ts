import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database } from '../../src/server/db/database.ts';
import { DiskMediaStore } from '../../src/server/media/disk-media-store.ts';
import { type MemorySeed, seedMemories } from '../../src/server/test/seed-memories.ts';
import type { Memory } from '../../src/shared/schemas/memory.ts';

/**
 * Stores memories in a running server's data directory, as an upload would leave them: rows
 * in its SQLite file and real files under media/. The server reads both on the next request.
 */
export async function seedMemoriesInto(dataDir: string, seeds: MemorySeed[]): Promise<Memory[]> {
  const sqlite = new SQLite(path.join(dataDir, 'confab.sqlite'));
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  try {
    return await seedMemories(
      { db, media: new DiskMediaStore(path.join(dataDir, 'media')) },
      seeds,
    );
  } finally {
    await db.destroy();
  }
}
