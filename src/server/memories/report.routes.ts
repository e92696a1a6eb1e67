import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponseSchema } from '../../shared/errors.ts';
import { API_PATHS } from '../../shared/routes.ts';
import { messageResponseSchema } from '../../shared/schemas/common.ts';
import { memoryParamsSchema } from '../../shared/schemas/memory.ts';
import { reportRequestSchema, reportedMemoriesSchema } from '../../shared/schemas/report.ts';
import { callerOf } from '../auth/callers.ts';
import { accessRules, adminPolled, routeOptions } from '../auth/route-options.ts';
import type { AppDeps } from '../deps.ts';
import { cacheHeaders } from '../http/transport/cache-headers.ts';
import { reportRateLimit, writeRateLimit } from '../http/transport/rate-limits.ts';
import { addressKey } from '../http/transport/address-key.ts';
import { listRoute } from '../lists/list-route.ts';
import { reportMemory, reportsView } from './report.service.ts';

/** What a report is answered, whatever it changed (a repeat is not told apart). */
const REPORT_RECEIVED = 'Thanks, the organisers will look at it';

/**
 * Reports of memories (decision 216): anybody asks for a memory to come down; the admin lists
 * the reported ones. The admin keeps one with `PATCH /api/media/:id` and removes one with
 * `DELETE /api/media/:id`, as any memory.
 */
export const reportRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const access = accessRules(deps.callers);
  const route = routeOptions('Memories');

  app.post(
    `${API_PATHS.memoryCreate}/:id/report`,
    route({
      summary: 'Ask for a memory to come down, with a reason',
      description:
        'Anyone (with an attendee token if they have one). `reason` is 1 to 500 characters; ' +
        '`category` one of `notConsented`, `inappropriate`, `other` (the default). A memory ' +
        'reported by `reportsToHide` people (attendees, or addresses without a token) is hidden ' +
        'until the admin keeps or deletes it; the same person reporting again counts once.',
      access: access.anyoneOrAttendee,
      limit: [reportRateLimit(app), ...writeRateLimit(app, deps.config.writeRateLimit)],
      bodyLimit: 4096,
      params: memoryParamsSchema,
      body: reportRequestSchema,
      response: { 202: messageResponseSchema, '4xx': errorResponseSchema },
    }),
    async (request, reply) => {
      cacheHeaders.noStore(reply.code(202));
      const caller = callerOf(request);
      await reportMemory(deps, request.params.id, caller, addressKey(request.ip), request.body);
      request.log.info({ memoryId: request.params.id }, 'memory reported');
      return { message: REPORT_RECEIVED };
    },
  );

  const { admin } = accessRules(deps.callers);
  // Polled every 2 s by the console's Reports tab, like the moderation lists (decision 101).
  await app.register(
    listRoute(deps.lists, {
      url: API_PATHS.adminReports,
      tags: ['Admin'],
      summary: 'Reported memories, most recently reported first, with their open reports',
      access: adminPolled(admin),
      response: reportedMemoriesSchema,
      view: () => reportsView(deps),
    }),
  );
};
