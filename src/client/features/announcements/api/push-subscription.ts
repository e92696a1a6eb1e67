import { API_PATHS } from '../../../../shared/routes.ts';
import { messageResponseSchema } from '../../../../shared/schemas/common.ts';
import { apiCall } from '../../../lib/api-client.ts';

/** POST /api/push/subscriptions: this device's PushSubscription, with the attendee token. */
export const saveSubscription = (subscription: PushSubscriptionJSON, token: string | undefined) =>
  apiCall(messageResponseSchema, API_PATHS.pushSubscriptions, {
    method: 'POST',
    json: subscription,
    token: token ?? null,
  });

/** DELETE /api/push/subscriptions: this device gets no more announcements. */
export const deleteSubscription = (endpoint: string, token: string | undefined) =>
  apiCall(messageResponseSchema, API_PATHS.pushSubscriptions, {
    method: 'DELETE',
    json: { endpoint },
    token: token ?? null,
  });
