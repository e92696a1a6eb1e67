import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import {
  type DatabaseIntrospector,
  type DatabaseMetadataOptions,
  Kysely,
  PostgresDialect,
  type SchemaMetadata,
  type TableMetadata,
  sql,
} from 'kysely';
import { Migrator } from 'kysely/migration';
import { SqliteDialect } from 'kysely-sqlite';
import pg from 'pg';
import type { Config } from '../config.ts';
import { keepRecent } from '../lib/keep-recent.ts';
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

/** The migrator's own tables, which only it asks to see. */
const KYSELY_TABLES = new Set(['kysely_migration', 'kysely_migration_lock']);

interface ColumnRow {
  table: string;
  kind: string;
  schema: string;
  column: string;
  not_null: boolean;
  has_default: boolean;
  type: string;
  type_schema: string;
  auto_incrementing: boolean;
}

/**
 * What the migrations see of the database: the tables of the current schema alone. Kysely's own
 * PostgreSQL introspector lists the tables of every schema and then looks each up by name, so a
 * schema dropped meanwhile (another tenant of the database, a test's) failed the migrations with
 * 3F000; Confab never asks about another schema.
 */
class CurrentSchemaIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<unknown>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<SchemaMetadata>`
      select nspname as name from pg_catalog.pg_namespace`.execute(this.db);
    return rows;
  }

  async getTables(
    options: DatabaseMetadataOptions = { withInternalKyselyTables: false },
  ): Promise<TableMetadata[]> {
    const { rows } = await sql<ColumnRow>`
      select c.relname as table, c.relkind as kind, ns.nspname as schema, a.attname as column,
        a.attnotnull as not_null, a.atthasdef as has_default, typ.typname as type,
        tns.nspname as type_schema,
        (a.attidentity <> '' or coalesce(pg_get_expr(d.adbin, d.adrelid), '') like 'nextval(%')
          as auto_incrementing
      from pg_catalog.pg_class c
        join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
        join pg_catalog.pg_attribute a on a.attrelid = c.oid
        join pg_catalog.pg_type typ on typ.oid = a.atttypid
        join pg_catalog.pg_namespace tns on tns.oid = typ.typnamespace
        left join pg_catalog.pg_attrdef d on d.adrelid = c.oid and d.adnum = a.attnum
      where ns.nspname = current_schema() and c.relkind in ('r', 'v', 'p', 'f')
        and a.attnum > 0 and not a.attisdropped
      order by c.relname, a.attnum`.execute(this.db);
    const tables = new Map<string, TableMetadata>();
    for (const row of rows) {
      if (!options.withInternalKyselyTables && KYSELY_TABLES.has(row.table)) continue;
      let table = tables.get(row.table);
      if (!table) {
        table = {
          name: row.table,
          schema: row.schema,
          isView: row.kind === 'v',
          isForeign: row.kind === 'f',
          columns: [],
        };
        tables.set(row.table, table);
      }
      table.columns.push({
        name: row.column,
        dataType: row.type,
        dataTypeSchema: row.type_schema,
        isNullable: !row.not_null,
        hasDefaultValue: row.has_default,
        isAutoIncrementing: row.auto_incrementing,
      });
    }
    return [...tables.values()];
  }
}

/** PostgreSQL, seen through the current schema alone. */
class CurrentSchemaPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new CurrentSchemaIntrospector(db);
  }
}

/** Opens the database chosen by the config: PostgreSQL when a URL is set, else SQLite in DATA_DIR. */
export function openDatabase(
  config: DbConfig,
  onError: ConnectionErrorSink = () => undefined,
): DatabaseHandle {
  if (config.databaseUrl) {
    const pool = createPgPool(config, config.databasePoolSize, onError);
    const db = new Kysely<Database>({ dialect: new CurrentSchemaPostgresDialect({ pool }) });
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
    dialect: new SqliteDialect({
      database: withStatementCache(openSqliteFile(sqliteFile(config.dataDir))),
    }),
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

/** Prepared statements kept per database: the app's queries, and a margin for lists of ids. */
const STATEMENTS_KEPT = 1000;

/**
 * The database as the query builder's driver uses it, with each statement prepared once per SQL
 * text: the driver prepares every query it runs, and compiling the same SQL again was a quarter
 * of the CPU time of a hall tapping reactions. The driver runs one query at a time to its end, so
 * a statement is never used by two queries at once; SQLite prepares a kept statement again by
 * itself after a migration changes the schema. The least recently used go first.
 */
function withStatementCache(database: DatabaseSync): DatabaseSync {
  const statements = new Map<string, StatementSync>();
  const prepare = (text: string): StatementSync => {
    const statement = statements.get(text) ?? database.prepare(text);
    keepRecent(statements, text, statement, STATEMENTS_KEPT);
    return statement;
  };
  return new Proxy(database, {
    get(target, key) {
      if (key === 'prepare') return prepare;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function'
        ? (value as (...args: unknown[]) => unknown).bind(target)
        : value;
    },
  });
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
