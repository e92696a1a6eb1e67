import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { SqliteDialect } from 'kysely-sqlite';
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
  close(): Promise<void>;
}

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
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: openSqliteFile(sqliteFile(config.dataDir)) }),
  });
  return {
    db,
    dialect: 'sqlite',
    schema: undefined,
    check: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}

/** Where the embedded database lives in a data directory. */
export const sqliteFile = (dataDir: string) => path.join(dataDir, 'confab.sqlite');

/**
 * Opens the embedded database with Node's built-in SQLite (no native module to compile): WAL,
 * so readers never wait for the writer, and a busy timeout for the moments another connection
 * (a backup, a maintenance script) holds the write lock.
 */
export function openSqliteFile(file: string): DatabaseSync {
  const sqlite = new DatabaseSync(file, { timeout: 5000 });
  sqlite.exec('pragma journal_mode = WAL');
  sqlite.exec('pragma synchronous = NORMAL');
  sqlite.exec('pragma foreign_keys = ON');
  return sqlite;
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
