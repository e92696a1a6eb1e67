import type { PushSubscriptionsTable } from '../db/database.ts';
import type { Executor } from '../db/queries.ts';
import { type Language, SOURCE_LANGUAGE, languageOf } from '../../shared/i18n/languages.ts';

/* Web Push's SQL (decision 240): devices' subscriptions, one per endpoint, and the VAPID keys. */

/** A device's subscription as the sender uses it (web-push's shape). */
export interface StoredSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  /** The language of its notifications' fixed words: English unless it said another. */
  language: Language;
}

const toStored = (
  row: Pick<PushSubscriptionsTable, 'endpoint' | 'p256dh' | 'auth' | 'language'>,
): StoredSubscription => ({
  endpoint: row.endpoint,
  keys: { p256dh: row.p256dh, auth: row.auth },
  language: languageOf(row.language) ?? SOURCE_LANGUAGE,
});

/**
 * Writes a device's subscription: one row per endpoint, so subscribing again (new keys, or another
 * attendee on the same browser) replaces it.
 */
export async function upsertSubscription(db: Executor, row: PushSubscriptionsTable): Promise<void> {
  await db
    .insertInto('push_subscriptions')
    .values(row)
    .onConflict((conflict) =>
      conflict.column('endpoint').doUpdateSet({
        attendee_id: row.attendee_id,
        p256dh: row.p256dh,
        auth: row.auth,
        created_at: row.created_at,
        language: row.language ?? null,
      }),
    )
    .execute();
}

/** Keeps an attendee's `keep` newest subscriptions; answers how many older ones went. */
export async function trimSubscriptionsOf(
  db: Executor,
  attendeeId: string,
  keep: number,
): Promise<number> {
  const older = await db
    .selectFrom('push_subscriptions')
    .select('endpoint')
    .where('attendee_id', '=', attendeeId)
    .orderBy('created_at', 'desc')
    .orderBy('endpoint', 'desc')
    .offset(keep)
    .limit(1000)
    .execute();
  if (older.length === 0) return 0;
  const result = await db
    .deleteFrom('push_subscriptions')
    .where(
      'endpoint',
      'in',
      older.map((row) => row.endpoint),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Removes a subscription; given `attendeeId`, only theirs. Answers whether one went. */
export async function deleteSubscription(
  db: Executor,
  endpoint: string,
  attendeeId?: string,
): Promise<boolean> {
  let query = db.deleteFrom('push_subscriptions').where('endpoint', '=', endpoint);
  if (attendeeId !== undefined) query = query.where('attendee_id', '=', attendeeId);
  const result = await query.executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** The subscriptions after endpoint `after`, by endpoint, at most `limit`. */
export async function listSubscriptions(
  db: Executor,
  options: { after?: string | undefined; limit: number },
): Promise<StoredSubscription[]> {
  let query = db
    .selectFrom('push_subscriptions')
    .select(['endpoint', 'p256dh', 'auth', 'language'])
    .orderBy('endpoint')
    .limit(options.limit);
  if (options.after !== undefined) query = query.where('endpoint', '>', options.after);
  return (await query.execute()).map(toStored);
}

/** An attendee's subscriptions, for their export: where each goes and since when. */
export async function subscriptionsOf(
  db: Executor,
  attendeeId: string,
): Promise<{ endpoint: string; createdAt: string }[]> {
  return db
    .selectFrom('push_subscriptions')
    .select(['endpoint', 'created_at as createdAt'])
    .where('attendee_id', '=', attendeeId)
    .orderBy('created_at')
    .execute();
}

/** Removes an attendee's subscriptions, or everyone's; answers how many went. */
export async function deleteSubscriptionsOf(
  db: Executor,
  attendeeId: string | undefined,
): Promise<number> {
  let query = db.deleteFrom('push_subscriptions');
  if (attendeeId !== undefined) query = query.where('attendee_id', '=', attendeeId);
  return Number((await query.executeTakeFirst()).numDeletedRows);
}

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

const VAPID_ROW = 'vapid';

/**
 * The server's VAPID keys: `made` is written unless a row is there already (another instance
 * starting at the same moment may have written its own first), then the row is read, so every
 * instance uses the same pair.
 */
export async function keepVapidKeys(
  db: Executor,
  made: VapidKeys,
  now: string,
): Promise<VapidKeys> {
  await db
    .insertInto('push_keys')
    .values({
      id: VAPID_ROW,
      public_key: made.publicKey,
      private_key: made.privateKey,
      created_at: now,
    })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .execute();
  const row = await db
    .selectFrom('push_keys')
    .select(['public_key', 'private_key'])
    .where('id', '=', VAPID_ROW)
    .executeTakeFirstOrThrow();
  return { publicKey: row.public_key, privateKey: row.private_key };
}

/** Whether the VAPID keys were made already. */
export async function readVapidKeys(db: Executor): Promise<VapidKeys | undefined> {
  const row = await db
    .selectFrom('push_keys')
    .select(['public_key', 'private_key'])
    .where('id', '=', VAPID_ROW)
    .executeTakeFirst();
  return row && { publicKey: row.public_key, privateKey: row.private_key };
}
