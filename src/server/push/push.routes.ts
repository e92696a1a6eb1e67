import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponseSchema } from '../../shared/errors.ts';
import {
  pushSubscriptionRequestSchema,
  pushUnsubscribeRequestSchema,
} from '../../shared/schemas/announcement.ts';
import { messageResponseSchema } from '../../shared/schemas/common.ts';
import { API_PATHS } from '../../shared/routes.ts';
import { requireAttendee } from '../auth/callers.ts';
import { accessRules, answeredPrivately, routeOptions } from '../auth/route-options.ts';
import type { AppDeps } from '../deps.ts';
import { cacheHeaders } from '../http/transport/cache-headers.ts';
import { writeRateLimit } from '../http/transport/rate-limits.ts';
import { subscribe, unsubscribe } from './push.service.ts';

/** A subscription is an address of up to 1,024 characters and two short keys. */
const SUBSCRIPTION_BODY = 2 * 1024;

/** An attendee's devices subscribing to announcements by Web Push, and unsubscribing (decision 240). */
export const pushRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const route = routeOptions('Announcements');
  const attendeeOnly = answeredPrivately(accessRules(deps.callers).attendee, cacheHeaders.noStore);
  const limit = writeRateLimit(app, deps.config.writeRateLimit);

  app.post(
    API_PATHS.pushSubscriptions,
    route({
      summary: 'Get announcements on this device: its PushSubscription (an attendee)',
      access: attendeeOnly,
      limit,
      bodyLimit: SUBSCRIPTION_BODY,
      body: pushSubscriptionRequestSchema,
      response: { 201: messageResponseSchema, '4xx': errorResponseSchema },
    }),
    async (request, reply) => {
      await subscribe(deps, requireAttendee(request), request.body);
      return reply.code(201).send({ message: 'Subscribed' });
    },
  );

  app.delete(
    API_PATHS.pushSubscriptions,
    route({
      summary: 'Stop announcements on this device (an attendee, their own device)',
      access: attendeeOnly,
      limit,
      bodyLimit: SUBSCRIPTION_BODY,
      body: pushUnsubscribeRequestSchema,
      response: { 200: messageResponseSchema, '4xx': errorResponseSchema },
    }),
    async (request) => {
      await unsubscribe(deps, requireAttendee(request), request.body.endpoint);
      return { message: 'Unsubscribed' };
    },
  );
};
