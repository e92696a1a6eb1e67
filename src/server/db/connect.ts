import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.ts';
import type { Database, Db } from './database.ts';
import { migrations } from './migrations/index.ts';

export type DialectName = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Db;
  dialect: DialectName;
  /** The PostgreSQL schema in use, when not the default search path. */
  schema: string | undefined;
  /** Runs a trivial query; throws when the database cannot answer. */
  check(): Promise<void>;
  /**
   * SQLite only: a number that moves whenever another connection commits to the file (its
   * `data_version`), never for this process's own writes. A synchronous read of shared memory,
   * made at most every 10 ms (thousands of polls a second ask for it).
   */
  commitsElsewhere?: () => number;
  close(): Promise<void>;
}

/** How stale `commitsElsewhere` may be: a commit by another process is seen this much later. */
const COMMITS_READ_INTERVAL_MS = 10;

type DbConfig = Pick<Config, 'dataDir' | 'databaseUrl' | 'databaseSchema' | 'databasePoolSize'>;

/** A PostgreSQL pool on the configured database and schema. */
export function createPgPool(
  config: Pick<Config, 'databaseUrl' | 'databaseSchema'>,
  max: number,
): pg.Pool {
  // int8 (counts, sizes) as numbers: every value stored here fits in a double.
  const types = new pg.TypeOverrides();
  types.setTypeParser(20, Number);
  const pool = new pg.Pool({
    connectionString: config.databaseUrl,
    max,
    types,
    ...(config.databaseSchema ? { options: `-c search_path=${config.databaseSchema}` } : {}),
  });
  // An idle client's error (e.g. the server restarting) must not crash the process.
  pool.on('error', () => undefined);
  return pool;
}

/** Opens the database chosen by the config: PostgreSQL when a URL is set, else SQLite in DATA_DIR. */
export function openDatabase(config: DbConfig): DatabaseHandle {
  if (config.databaseUrl) {
    const pool = createPgPool(config, config.databasePoolSize);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return {
      db,
      dialect: 'postgres',
      schema: config.databaseSchema,
      check: async () => {
        await sql`select 1`.execute(db);
      },
      close: () => db.destroy(),
    };
  }

  fs.mkdirSync(config.dataDir, { recursive: true });
  const file = path.join(config.dataDir, 'confab.sqlite');
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  let commits = 0;
  let commitsReadAt = -Infinity;
  const dataVersion = sqlite.prepare('pragma data_version').pluck();
  return {
    db,
    dialect: 'sqlite',
    schema: undefined,
    check: async () => {
      await sql`select 1`.execute(db);
    },
    commitsElsewhere: () => {
      // Asked on every poll, from the raw request listener too, so it never throws. Once the
      // file is closed (or cannot be read), the last count stands: a poll needs no database.
      const now = performance.now();
      if (now - commitsReadAt < COMMITS_READ_INTERVAL_MS) return commits;
      commitsReadAt = now;
      try {
        if (sqlite.open) commits = dataVersion.get() as number;
      } catch {
        // the last count stands
      }
      return commits;
    },
    close: () => db.destroy(),
  };
}

async function runMigrations(db: Db, schema: string | undefined): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
    // Kysely looks for its own tables in every schema; name ours so other schemas don't count.
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error !== undefined || failed) {
    const reason = error instanceof Error ? error.message : 'unknown error';
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${reason}`);
  }
}

/**
 * Applies every pending migration. On PostgreSQL, instances that start together queue on an
 * advisory lock held for the whole run: Kysely's own lock is taken only after it creates its
 * bookkeeping tables, and two instances creating those at once collide.
 */
export async function migrateToLatest({
  db,
  dialect,
  schema,
}: Pick<DatabaseHandle, 'db' | 'dialect' | 'schema'>): Promise<void> {
  if (dialect !== 'postgres') {
    await runMigrations(db, schema);
    return;
  }
  const lockName = `confab-migrations:${schema ?? 'public'}`;
  await db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(hashtext(${lockName}))`.execute(connection);
    try {
      await runMigrations(connection, schema);
      // The socket.io PostgreSQL adapter's table for large packets: infrastructure of the
      // PostgreSQL deployment only, so it is made here rather than in the portable migrations.
      await sql`create table if not exists socket_io_attachments (
        id bigserial unique,
        created_at timestamptz default now(),
        payload bytea
      )`.execute(connection);
    } finally {
      await sql`select pg_advisory_unlock(hashtext(${lockName}))`.execute(connection);
    }
  });
}
