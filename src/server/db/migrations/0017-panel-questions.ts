import { type Kysely, PostgresAdapter, sql } from 'kysely';

/*
 * A question asked of a session's panel as a whole has no speaker (decision 223): the questions'
 * `speaker_id` may be null from here on. PostgreSQL drops the constraint; SQLite cannot alter a
 * column, so it builds the table again as SQLite's documentation describes ("Making Other Kinds
 * Of Table Schema Changes"): the same definition (whatever columns and indexes earlier
 * migrations gave it) without `not null` on `speaker_id`, its rows copied, with the foreign keys
 * off meanwhile so that dropping the old table deletes no vote.
 */

const SPEAKER_REQUIRED = /"speaker_id" text not null/i;

interface SchemaRow {
  sql: string | null;
}

async function tableSql(db: Kysely<unknown>, type: 'table' | 'index'): Promise<string[]> {
  const { rows } = await sql<SchemaRow>`
    select sql from sqlite_master where type = ${type} and tbl_name = 'questions' and sql is not null
  `.execute(db);
  return rows.map((row) => row.sql ?? '');
}

/** Builds the questions table again from its own definition, changed by `change`. */
async function rebuildSqlite(db: Kysely<unknown>, change: (definition: string) => string) {
  const [definition] = await tableSql(db, 'table');
  if (definition === undefined) throw new Error('The questions table is missing');
  const indexes = await tableSql(db, 'index');
  const renamed = change(definition).replace(
    /^create table "?questions"?/i,
    'create table "questions_new"',
  );
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      await sql.raw(renamed).execute(trx);
      await sql`insert into questions_new select * from questions`.execute(trx);
      await sql`drop table questions`.execute(trx);
      await sql`alter table questions_new rename to questions`.execute(trx);
      for (const index of indexes) await sql.raw(index).execute(trx);
      const broken = await sql`pragma foreign_key_check`.execute(trx);
      if (broken.rows.length > 0) throw new Error('The questions table breaks a foreign key');
    });
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql`alter table questions alter column speaker_id drop not null`.execute(db);
    return;
  }
  await rebuildSqlite(db, (definition) => {
    if (!SPEAKER_REQUIRED.test(definition)) throw new Error('Unexpected questions table');
    return definition.replace(SPEAKER_REQUIRED, '"speaker_id" text');
  });
}

/** Back to a required speaker: the panel questions (no speaker) go, with their votes. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from question_votes where question_id in (select id from questions where speaker_id is null)`.execute(
    db,
  );
  await sql`delete from questions where speaker_id is null`.execute(db);
  if (isPostgres(db)) {
    await sql`alter table questions alter column speaker_id set not null`.execute(db);
    return;
  }
  await rebuildSqlite(db, (definition) =>
    definition.replace(/"speaker_id" text(?! not null)/i, '"speaker_id" text not null'),
  );
}
