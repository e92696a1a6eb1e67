import webpush from 'web-push';
import type { PushSubscriptionRequest } from '../../shared/schemas/announcement.ts';
import type { Attendee } from '../auth/callers.ts';
import type { AppDeps } from '../deps.ts';
import { invalid } from '../http/errors.ts';
import { isAllowedPushEndpoint } from './push-endpoints.ts';
import {
  type VapidKeys,
  deleteSubscription,
  keepVapidKeys,
  readVapidKeys,
  subscriptionsOf,
  trimSubscriptionsOf,
  upsertSubscription,
} from './push.repository.ts';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'config'>;

/** Devices one attendee gets announcements on: a phone, a laptop, a tablet and a spare. */
export const DEVICES_PER_ATTENDEE = 5;

/**
 * The server's VAPID keys (decision 240): made at the first start and kept in the database, so
 * every instance, and every restart, signs with the same pair and devices stay subscribed.
 */
export async function vapidKeys(deps: Pick<AppDeps, 'db' | 'clock'>): Promise<VapidKeys> {
  const kept = await readVapidKeys(deps.db);
  if (kept) return kept;
  return keepVapidKeys(deps.db, webpush.generateVAPIDKeys(), deps.clock.now().toISOString());
}

/**
 * Subscribes a device of `attendee` (POST /api/push/subscriptions): its endpoint must be a
 * browser's push service or an allowed origin (400 otherwise, nothing stored). One row per
 * endpoint; an attendee keeps their newest `DEVICES_PER_ATTENDEE`.
 */
export async function subscribe(
  deps: Deps,
  attendee: Attendee,
  subscription: PushSubscriptionRequest,
): Promise<void> {
  if (!isAllowedPushEndpoint(subscription.endpoint, deps.config.push.allowedOrigins)) {
    throw invalid('pushEndpoint');
  }
  await deps.db.transaction().execute(async (trx) => {
    await upsertSubscription(trx, {
      endpoint: subscription.endpoint,
      attendee_id: attendee.id,
      p256dh: subscription.keys.p256dh,
      auth: subscription.keys.auth,
      created_at: deps.clock.now().toISOString(),
      language: subscription.language ?? null,
    });
    await trimSubscriptionsOf(trx, attendee.id, DEVICES_PER_ATTENDEE);
  });
}

/** Unsubscribes a device of `attendee`; another's endpoint, or none, is left alone. */
export async function unsubscribe(deps: Deps, attendee: Attendee, endpoint: string) {
  return deleteSubscription(deps.db, endpoint, attendee.id);
}

/** An attendee's subscriptions for their export: the push service's address and since when. */
export const pushSubscriptionsOf = (deps: Pick<AppDeps, 'db'>, attendeeId: string) =>
  subscriptionsOf(deps.db, attendeeId);
