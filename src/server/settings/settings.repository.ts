import type { Db } from '../db/database.ts';

/** A stored value by key, or undefined. */
export async function readSetting(db: Db, key: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', key)
    .executeTakeFirst();
  return row?.value;
}

export async function writeSetting(db: Db, key: string, value: string): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}

/** Stores `value` unless the key has one already; answers the value that is stored. */
export async function settingOnce(db: Db, key: string, value: string): Promise<string> {
  await db
    .insertInto('settings')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  return (await readSetting(db, key)) ?? value;
}
