import fp from 'fastify-plugin';
import type { AppDeps } from '../deps.ts';
import { createPushSender } from '../push/push-sender.ts';
import { vapidKeys } from '../push/push.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    push: AppDeps['push'];
  }
}

/** The VAPID subject when the app's address is unknown (push services want some contact). */
const FALLBACK_SUBJECT = 'mailto:announcements@confab.invalid';

/**
 * Web Push (decision 240): the VAPID keys, made at the first start and read from the database
 * by every instance, and the sender of announcements to subscribed devices, a subscriber of the
 * domain events. Closing stops it and waits for the pushes in flight.
 */
export const pushPlugin = fp(
  async (app) => {
    const keys = await vapidKeys({ db: app.database.db, clock: app.clock });
    const { publicUrl } = app.config;
    const sender = createPushSender({
      db: app.database.db,
      keys,
      subject: publicUrl?.startsWith('https:') ? publicUrl : FALLBACK_SUBJECT,
      eventName: () => app.settings.current.eventName,
      log: app.log,
    });
    app.events.subscribe('clients', sender);
    app.decorate('push', { vapidPublicKey: keys.publicKey });
    app.addHook('onClose', () => sender.stop());
  },
  { name: 'push', dependencies: ['config', 'database', 'events', 'settings'] },
);
