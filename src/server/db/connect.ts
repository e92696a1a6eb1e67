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

type PgConfig = Pick<Config, 'databaseUrl' | 'databaseSchema'>;

/** How long opening a connection may take before it counts as failed (health answers 503). */
const CONNECT_TIMEOUT_MS = 5_000;

/** What a connection of ours is told to use: the URL, the schema, int8 as numbers. */
function clientOptions(config: PgConfig): pg.ClientConfig {
  // int8 (counts, sizes) as numbers: every value stored here fits in a double.
  const types = new pg.TypeOverrides();
  types.setTypeParser(20, Number);
  return {
    connectionString: config.databaseUrl,
    types,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    ...(config.databaseSchema ? { options: `-c search_path=${config.databaseSchema}` } : {}),
  };
}

/** Where the errors of connections nobody is waiting on go (a log). */
export type ConnectionErrorSink = (error: Error) => void;

/**
 * A PostgreSQL pool on the configured database and schema. Every client it makes has an error
 * handler from birth: a connection the server ends (a restart, a failover, `pg_terminate_backend`,
 * `idle_session_timeout`) emits `error` whether it is idle or checked out, and an `error` event
 * without a listener ends the process. Whoever holds a client gives it back, and the pool drops
 * it then; connections held for good (LISTEN) come from `listenConnections` instead.
 */
export function createPgPool(
  config: PgConfig,
  max: number,
  onError: ConnectionErrorSink = () => undefined,
): pg.Pool {
  const pool = new pg.Pool({ ...clientOptions(config), max });
  pool.on('error', onError);
  pool.on('connect', (client) => client.on('error', onError));
  return pool;
}

/**
 * Delay before the `attempt`-th reconnection (1, 2, …) of a long-lived connection: doubling from
 * 250 ms to at most 3 s, with jitter so that instances do not reconnect in step.
 */
export const reconnectDelayMs = (attempt: number): number =>
  Math.round(Math.min(3_000, 250 * 2 ** Math.max(0, attempt - 1)) * (0.75 + Math.random() / 2));

/**
 * Connections outside any pool for LISTEN, which hold their connection for as long as they
 * live: each has an error handler, `release()` ends it, and after a failed attempt the next
 * one waits `reconnectDelayMs` first. After `close`, no new connection is made.
 */
export function listenConnections(config: PgConfig, onError: ConnectionErrorSink) {
  let failures = 0;
  let closed = false;
  const open = new Set<pg.Client>();
  const isClosed = () => closed;
  return {
    async connect(): Promise<pg.Client & { release(): void }> {
      if (failures > 0) {
        await new Promise((resolve) => setTimeout(resolve, reconnectDelayMs(failures)));
      }
      if (closed) throw new Error('The application is closing');
      const client = new pg.Client(clientOptions(config));
      client.on('error', onError);
      try {
        await client.connect();
      } catch (error) {
        failures += 1;
        throw error;
      }
      failures = 0;
      open.add(client);
      client.once('end', () => open.delete(client));
      // `close` may have come while this one was connecting.
      if (isClosed()) {
        void client.end();
        throw new Error('The application is closing');
      }
      return Object.assign(client, {
        release: () => {
          open.delete(client);
          void client.end().catch(() => undefined);
        },
      });
    },
    /** Ends every connection still open. */
    async close(): Promise<void> {
      closed = true;
      await Promise.all([...open].map((client) => client.end().catch(() => undefined)));
    },
  };
}

export type ListenConnections = ReturnType<typeof listenConnections>;

/** Opens the database chosen by the config: PostgreSQL when a URL is set, else SQLite in DATA_DIR. */
export function openDatabase(
  config: DbConfig,
  onError: ConnectionErrorSink = () => undefined,
): DatabaseHandle {
  if (config.databaseUrl) {
    const pool = createPgPool(config, config.databasePoolSize, onError);
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

/** How often a run that met another schema's removal starts again before it gives up. */
const MIGRATION_ATTEMPTS = 5;

/**
 * Whether a run failed only because another schema of the database went away under it:
 * Kysely's migrator (and migration 0006) list the tables of every schema, and a schema dropped
 * between the listing and its lookups (tests or other tenants sharing the database) fails the
 * run with 3F000.
 */
function isOtherSchemaGone(error: unknown, schema: string | undefined): boolean {
  if (!(error instanceof Error) || (error as { code?: unknown }).code !== '3F000') return false;
  return schema === undefined || !error.message.includes(`"${schema}"`);
}

async function runMigrations(db: Db, schema: string | undefined): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
    // Kysely looks for its own tables in every schema; name ours so other schemas don't count.
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  for (let attempt = 1; ; attempt += 1) {
    const { error, results } = await migrator.migrateToLatest();
    const failed = results?.find((result) => result.status === 'Error');
    if (error === undefined && !failed) return;
    // On PostgreSQL a run is one transaction: a failed one left nothing behind to start again on.
    if (attempt < MIGRATION_ATTEMPTS && isOtherSchemaGone(error, schema)) continue;
    const reason = error instanceof Error ? error.message : 'unknown error';
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${reason}`, {
      cause: error,
    });
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
    } finally {
      await sql`select pg_advisory_unlock(hashtext(${lockName}))`.execute(connection);
    }
  });
}
