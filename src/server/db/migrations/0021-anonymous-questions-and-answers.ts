import type { Kysely } from 'kysely';
import { newColumns, zeroByDefault } from '../migration-helpers.ts';

/*
 * A question may be asked anonymously (decision 233): `anonymous` (0 or 1) is set once, when it
 * is asked, and never cleared; the asker's name stays stored for the admin, erasure and the
 * export. A session's speaker may write an answer (decision 234): `answer` (text, null: none) and
 * `answered_at`, when the answer was last written.
 */
const columns = newColumns('questions', [
  ['anonymous', 'integer', zeroByDefault],
  ['answer', 'text'],
  ['answered_at', 'text'],
]);

export async function up(db: Kysely<unknown>): Promise<void> {
  await columns.add(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await columns.drop(db);
}
