import type { Kysely } from 'kysely';
import { newColumns } from '../migration-helpers.ts';

/*
 * A device's push subscription remembers the language its person reads (decision 246), so the
 * fixed words of a notification are written in it: `language` (a shipped language's code; null
 * for a subscription made before, written in English).
 */
const columns = newColumns('push_subscriptions', [['language', 'text']]);

export async function up(db: Kysely<unknown>): Promise<void> {
  await columns.add(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await columns.drop(db);
}
