import {
  type DeleteResult,
  type InsertResult,
  type Selectable,
  type SelectQueryBuilder,
  type Transaction,
  type UpdateResult,
  sql,
} from 'kysely';
import type { Database, Db } from './database.ts';

/** What a repository function runs its queries on: the database, or the caller's transaction. */
export type Executor = Db | Transaction<Database>;

/** The tables whose rows are known by a text `id`, which sorts by creation time. */
type TableWithId = {
  [T in keyof Database]: Database[T] extends { id: string } ? T : never;
}[keyof Database];

const id = sql.ref<string>('id');

type Row<T extends keyof Database> = Selectable<Database[T]>;

/** The row of `table` with this id, or undefined; given `map`, what it makes of the row. */
export async function findById<T extends TableWithId>(
  db: Executor,
  table: T,
  rowId: string,
): Promise<Row<T> | undefined>;
export async function findById<T extends TableWithId, R>(
  db: Executor,
  table: T,
  rowId: string,
  map: (row: Row<T>) => R,
): Promise<R | undefined>;
export async function findById<T extends TableWithId>(
  db: Executor,
  table: T,
  rowId: string,
  map: (row: Row<T>) => unknown = (row) => row,
): Promise<unknown> {
  const { rows } = await sql<Row<T>>`
    select * from ${sql.table(table)} where ${id} = ${rowId}`.execute(db);
  const row = rows[0];
  return row && map(row);
}

/** How many rows `table` holds. */
export async function countRows(db: Executor, table: keyof Database): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Whether the query finds any row. */
export async function exists<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
): Promise<boolean> {
  return (await query.limit(1).executeTakeFirst()) !== undefined;
}

/** The ids of the rows a query answers, in its order. */
export async function idsOf(query: { execute(): Promise<{ id: string }[]> }): Promise<string[]> {
  const rows = await query.execute();
  return rows.map((row) => row.id);
}

/** A page of rows older than the id `before` (all when undefined), newest first. */
export interface PageBefore {
  limit: number;
  before?: string | undefined;
}

/** A page of rows newer than the id `after` (all when undefined), oldest first. */
export interface PageAfter {
  limit: number;
  after?: string | undefined;
}

/**
 * Pages by id, newest first: at most `limit` rows, older than the id `before` when one is given.
 * For `$call` on a query of one table.
 */
export const newestFirst =
  (page: PageBefore) =>
  <DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>) => {
    const paged = query.orderBy(id, 'desc').limit(page.limit);
    return page.before ? paged.where(id, '<', page.before) : paged;
  };

/**
 * Pages by id, oldest first: at most `limit` rows, newer than the id `after` when one is given.
 * For `$call` on a query of one table.
 */
export const oldestFirst =
  (page: PageAfter) =>
  <DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>) => {
    const paged = query.orderBy(id).limit(page.limit);
    return page.after ? paged.where(id, '>', page.after) : paged;
  };

type WriteQuery = { executeTakeFirst(): Promise<InsertResult | UpdateResult | DeleteResult> };

/** Runs an insert, update or delete and answers how many rows it wrote. */
export async function rowsWritten(query: WriteQuery): Promise<number> {
  const result = await query.executeTakeFirst();
  if ('numDeletedRows' in result) return Number(result.numDeletedRows);
  if ('numUpdatedRows' in result) return Number(result.numUpdatedRows);
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

/** Runs an insert, update or delete and answers whether it wrote any row. */
export async function wroteAny(query: WriteQuery): Promise<boolean> {
  return (await rowsWritten(query)) > 0;
}
