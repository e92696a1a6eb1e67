import { API_PATHS } from '../../../../shared/routes.ts';
import { messageResponseSchema } from '../../../../shared/schemas/common.ts';
import { apiCall } from '../../../lib/api-client.ts';
import { shownLanguage } from '../../../i18n/language.ts';

/** POST /api/push/subscriptions: this device's PushSubscription, with the attendee token. */
export const saveSubscription = (subscription: PushSubscriptionJSON, token: string | undefined) =>
  apiCall(messageResponseSchema, API_PATHS.pushSubscriptions, {
    method: 'POST',
    // The notifications' fixed words are written in the language this device shows.
    json: { ...subscription, language: shownLanguage() },
    token: token ?? null,
  });

/** DELETE /api/push/subscriptions: this device gets no more announcements. */
export const deleteSubscription = (endpoint: string, token: string | undefined) =>
  apiCall(messageResponseSchema, API_PATHS.pushSubscriptions, {
    method: 'DELETE',
    json: { endpoint },
    token: token ?? null,
  });
