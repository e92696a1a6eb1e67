import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponseSchema } from '../../shared/errors.ts';
import {
  announcementCreateRequestSchema,
  announcementListSchema,
  announcementSchema,
} from '../../shared/schemas/announcement.ts';
import { API_PATHS } from '../../shared/routes.ts';
import { accessRules, answeredPrivately, routeOptions } from '../auth/route-options.ts';
import type { AppDeps } from '../deps.ts';
import { cacheHeaders } from '../http/transport/cache-headers.ts';
import { answerNotModified, bodyTag } from '../http/transport/conditional-get.ts';
import { writeRateLimit } from '../http/transport/rate-limits.ts';
import { createAnnouncement, todaysAnnouncements } from './announcement.service.ts';

/** An announcement's body: 280 characters, escaped, and two ids. */
const ANNOUNCEMENT_BODY = 4 * 1024;

/**
 * Announcements (decision 239): today's, for every screen to show on load and on reconnect;
 * the admin's, sent live and by Web Push.
 */
export const announcementRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (
  app,
  { deps },
) => {
  const route = routeOptions('Announcements');
  const adminOnly = answeredPrivately(accessRules(deps.callers).admin, cacheHeaders.noStore);

  app.get(
    API_PATHS.announcements,
    route({
      summary: 'Today’s announcements (in the event’s time zone), newest first',
      response: { 200: announcementListSchema, 304: z.null(), '4xx': errorResponseSchema },
    }),
    async (request, reply) => {
      const announcements = await todaysAnnouncements(deps);
      // Revalidated each time (a 304 while it is the same): a new one, or a new day, changes it.
      if (answerNotModified(request, reply, bodyTag(JSON.stringify(announcements)))) return reply;
      return announcements;
    },
  );

  app.post(
    API_PATHS.adminAnnouncements,
    route({
      summary: 'Announce something to everyone, a room or a session (the admin)',
      access: adminOnly,
      limit: writeRateLimit(app, deps.config.writeRateLimit),
      bodyLimit: ANNOUNCEMENT_BODY,
      body: announcementCreateRequestSchema,
      response: { 201: announcementSchema, '4xx': errorResponseSchema },
    }),
    async (request, reply) => {
      const announcement = await createAnnouncement(deps, request.body);
      return reply.code(201).send(announcement);
    },
  );
};
