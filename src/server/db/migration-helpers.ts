import type {
  ColumnDataType,
  ColumnDefinitionBuilderCallback,
  CreateTableBuilder,
  Kysely,
} from 'kysely';

/*
 * The steps the migrations repeat. A migration that ran in a deployment must go on making exactly
 * the same schema, and every migration imports these: so what each one makes never changes. A
 * migration that needs something else gets a new helper (or writes it out), never a change here.
 */

/** Columns every row has a text for (`not null`), added in the order given. */
export const requiredText =
  (...names: string[]) =>
  <TB extends string, C extends string>(table: CreateTableBuilder<TB, C>) =>
    names.reduce<CreateTableBuilder<TB, string>>(
      (builder, name) => builder.addColumn(name, 'text', (c) => c.notNull()),
      table,
    );

/** A flag (0/1) or a counter: an integer that rows stored before it start at 0 in. */
export const zeroByDefault: ColumnDefinitionBuilderCallback = (c) => c.notNull().defaultTo(0);

type NewColumn = [name: string, type: ColumnDataType, build?: ColumnDefinitionBuilderCallback];

/**
 * Columns a migration adds to a table that exists, each a name, a type and its constraints:
 * `add` adds them in the order given, one statement each (as SQLite alters a table), and `drop`
 * undoes that, the last added first.
 */
export function newColumns(table: string, columns: readonly NewColumn[]) {
  return {
    async add(db: Kysely<unknown>): Promise<void> {
      for (const [name, type, build] of columns) {
        await db.schema.alterTable(table).addColumn(name, type, build).execute();
      }
    },
    async drop(db: Kysely<unknown>): Promise<void> {
      for (const [name] of columns.toReversed()) {
        await db.schema.alterTable(table).dropColumn(name).execute();
      }
    },
  };
}

/** Creates an index on `columns` of `table`, in that order. */
export async function createIndex(
  db: Kysely<unknown>,
  name: string,
  table: string,
  columns: string[],
  options: { unique?: boolean } = {},
): Promise<void> {
  const index = db.schema.createIndex(name).on(table).columns(columns);
  await (options.unique ? index.unique() : index).execute();
}
