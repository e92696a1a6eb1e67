import type { DataStore } from '@tus/server';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API_PATHS } from '../../shared/routes.ts';
import {
  adminAuditEntrySchema,
  adminAuditQuerySchema,
  adminCheckResponseSchema,
  adminLoginRequestSchema,
  adminLoginResponseSchema,
  adminMediaParamsSchema,
  adminMediaQuerySchema,
  purgeRequestSchema,
  purgeResponseSchema,
} from '../../shared/schemas/admin.ts';
import { messageResponseSchema } from '../../shared/schemas/common.ts';
import {
  memorySchema,
  memoryStatusUpdateSchema,
  memoryUpdateResponseSchema,
} from '../../shared/schemas/memory.ts';
import type { AppDeps } from '../deps.ts';
import type { AdminAuth } from './admin-auth.ts';
import { badRequest, notFound, tooManyRequests, unauthorized } from '../http/errors.ts';
import { writeRateLimit } from '../http/transport/rate-limits.ts';
import { listRoute } from '../lists/list-route.ts';
import { deviceCookieHeader, deviceCookiesOf } from './device-cookie.ts';
import { requireAdmin } from '../auth/callers.ts';
import {
  accessRules,
  adminPolled,
  answeredPrivately,
  routeOptions,
} from '../auth/route-options.ts';
import {
  adminStatsSchema,
  settingsResponseSchema,
  settingsUpdateSchema,
} from '../../shared/schemas/settings.ts';
import { errorResponseSchema } from '../../shared/errors.ts';
import { readPictureForm } from '../media/picture-form.ts';
import { formRoutes } from '../http/transport/multipart.ts';
import { LOGO_MAX_MB, removeLogo, replaceLogo } from '../settings/settings.service.ts';
import { memoriesView } from '../memories/memory.service.ts';
import { archiveSlots, memoriesArchive, sendArchive } from '../memories/memories-archive.ts';
import { purgeAsAdmin } from './purge.service.ts';
import {
  type Actor,
  adminStats,
  statsCsv,
  approveMemoryAsAdmin,
  deleteMemoryAsAdmin,
  listForModeration,
  moderationView,
  recentDeletions,
} from './admin.service.ts';
import { cacheHeaders } from '../http/transport/cache-headers.ts';

/** Archives of every memory made at once by one instance (`GET /api/admin/memories.zip`). */
const MAX_ARCHIVES_AT_ONCE = 2;

/**
 * Admin login, the token check, moderation of memories and the moderation log. Every route
 * but the login answers 401 before doing anything else when the Bearer token is not valid.
 */
export const adminRoutes: FastifyPluginAsyncZod<{
  deps: AppDeps;
  auth: AdminAuth;
  /** The resumable uploads' store: a purge removes the unfinished ones. */
  uploads: DataStore;
}> = async (app, { deps, auth, uploads }) => {
  const route = routeOptions('Admin');

  app.post(
    API_PATHS.adminLogin,
    route({
      summary: 'Log in as the admin and get a token',
      limit: writeRateLimit(app, deps.config.writeRateLimit),
      body: adminLoginRequestSchema,
      response: { 200: adminLoginResponseSchema },
    }),
    async (request, reply) => {
      cacheHeaders.noStore(reply);
      const result = await auth.login(request.body, {
        address: request.ip,
        deviceCookies: deviceCookiesOf(request.headers.cookie),
      });
      const { knownDevice } = result;
      if (result.outcome === 'blocked') {
        const seconds = Math.ceil(result.retryAfterMs / 1000);
        request.log.warn(
          { ip: request.ip, knownDevice, retryAfterSeconds: seconds },
          'admin login refused: too many failed attempts',
        );
        throw tooManyRequests('loginAttempts', seconds).retryAfter(seconds);
      }
      if (result.outcome === 'invalid') {
        request.log.warn(
          {
            ip: request.ip,
            knownDevice,
            username: request.body.username.slice(0, 60),
            failures: result.failures,
          },
          'admin login failed',
        );
        throw unauthorized('adminCredentials');
      }
      request.log.info(
        { ip: request.ip, knownDevice, username: result.session.username },
        'admin logged in',
      );
      // The browser is known from now on (decision 195); a new nonce at each login.
      reply.header(
        'set-cookie',
        deviceCookieHeader(result.deviceCookie, request.protocol === 'https'),
      );
      return {
        message: 'Login successful',
        token: result.token,
        expiresAt: result.session.expiresAt.toISOString(),
      };
    },
  );

  const securedRoutes: FastifyPluginAsyncZod = async (secured) => {
    const { admin } = accessRules(deps.callers);
    // Checked on request, before the body is read or the input validated: no work without a
    // token. The admin's answers are made for each request: never kept by any cache (the list
    // says otherwise for itself).
    const adminOnly = answeredPrivately(admin, cacheHeaders.noStore);
    const actorOf = (request: FastifyRequest): Actor => ({
      username: requireAdmin(request).username,
      ip: request.ip,
    });
    // Each admin write is limited on its own.
    const limit = () => writeRateLimit(secured, deps.config.writeRateLimit);

    secured.get(
      API_PATHS.adminCheck,
      route({
        summary: 'Check the admin token',
        access: adminOnly,
        response: { 200: adminCheckResponseSchema },
      }),
      async (request) => {
        const session = requireAdmin(request);
        return {
          message: 'Authenticated',
          username: session.username,
          expiresAt: session.expiresAt.toISOString(),
        };
      },
    );

    // Polled every 2 s by an open admin screen: a list like the gallery (decision 101).
    await secured.register(
      listRoute(deps.lists, {
        url: API_PATHS.adminMedia,
        tags: ['Admin'],
        summary: 'List memories for moderation',
        access: adminPolled(admin),
        querystring: adminMediaQuerySchema,
        response: z.array(memorySchema),
        view: ({ query }) =>
          memoriesView(moderationView(query), () => listForModeration(deps.db, query)),
      }),
    );

    secured.delete(
      `${API_PATHS.adminMedia}/:id`,
      route({
        summary: 'Delete a memory',
        access: adminOnly,
        limit: limit(),
        params: adminMediaParamsSchema,
        response: { 200: messageResponseSchema },
      }),
      async (request) => {
        const actor = actorOf(request);
        const { id } = request.params;
        if ((await deleteMemoryAsAdmin(deps, id, actor)) === 'not-found') {
          throw notFound('memory');
        }
        request.log.info(
          { ip: actor.ip, admin: actor.username, memoryId: id },
          'admin deleted a memory',
        );
        return { message: 'Memory deleted' };
      },
    );

    secured.patch(
      `${API_PATHS.adminMedia}/:id`,
      route({
        summary: 'Approve a memory awaiting approval',
        access: adminOnly,
        limit: limit(),
        bodyLimit: 1024,
        params: adminMediaParamsSchema,
        body: memoryStatusUpdateSchema,
        response: { 200: memoryUpdateResponseSchema },
      }),
      async (request) => {
        const actor = actorOf(request);
        const memory = await approveMemoryAsAdmin(deps, request.params.id, actor);
        if (!memory) throw notFound('memory');
        request.log.info(
          { ip: actor.ip, admin: actor.username, memoryId: memory._id },
          'admin approved a memory',
        );
        return { memory };
      },
    );

    const openArchive = archiveSlots(MAX_ARCHIVES_AT_ONCE);
    secured.get(
      API_PATHS.adminMemoriesZip,
      route({
        summary: 'Every published memory in one ZIP, streamed',
        access: adminOnly,
        limit: limit(),
        produces: ['application/zip'],
      }),
      async (request, reply) => {
        const opened = await openArchive(
          reply,
          () => tooManyRequests('archiveRunning').retryAfter(30),
          () => memoriesArchive(deps, request.log),
        );
        const day = deps.clock.now().toISOString().slice(0, 10);
        request.log.info(
          { admin: requireAdmin(request).username, ...opened.size },
          'admin downloads every memory',
        );
        return sendArchive(reply, opened, `memories-${day}.zip`);
      },
    );

    secured.get(
      API_PATHS.adminSettings,
      route({
        summary: 'The settings',
        access: adminOnly,
        response: { 200: settingsResponseSchema },
      }),
      async () => deps.settings.withLogo,
    );

    secured.put(
      API_PATHS.adminSettings,
      route({
        summary: 'Change any of the settings',
        access: adminOnly,
        limit: limit(),
        // The privacy notice (5,000 characters) and the blocked words (1,000 of up to 50), each
        // character up to 4 bytes.
        bodyLimit: 256 * 1024,
        body: settingsUpdateSchema,
        response: { 200: settingsResponseSchema },
      }),
      async (request) => {
        await deps.settings.update(request.body);
        request.log.info(
          { admin: requireAdmin(request).username, change: request.body },
          'settings changed',
        );
        return deps.settings.withLogo;
      },
    );

    await secured.register(
      formRoutes(async (forms) => {
        forms.put(
          API_PATHS.adminSettingsLogo,
          route({
            summary: "Set the event's logo (multipart, one image in `logo`)",
            access: adminOnly,
            limit: limit(),
            response: { 200: settingsResponseSchema, '4xx': errorResponseSchema },
          }),
          async (request) => {
            const { picture } = await readPictureForm(request, {
              field: 'logo',
              maxMb: LOGO_MAX_MB,
              maxFields: 0,
              fieldBytes: 1024,
            });
            if (picture.length === 0) throw badRequest('logoField');
            await replaceLogo(deps, picture);
            request.log.info({ admin: requireAdmin(request).username }, 'logo changed');
            return deps.settings.withLogo;
          },
        );
      }),
    );

    secured.delete(
      API_PATHS.adminSettingsLogo,
      route({
        summary: "Remove the event's logo (the app's own shows again)",
        access: adminOnly,
        limit: limit(),
        response: { 200: settingsResponseSchema },
      }),
      async (request) => {
        if (await removeLogo(deps)) {
          request.log.info({ admin: requireAdmin(request).username }, 'logo removed');
        }
        return deps.settings.withLogo;
      },
    );

    secured.post(
      API_PATHS.adminPurge,
      route({
        summary:
          "Purge the event's data: attendees, memories and their files, questions, votes; keeps the settings, speakers and programme",
        access: adminOnly,
        limit: limit(),
        bodyLimit: 1024,
        body: purgeRequestSchema,
        response: { 200: purgeResponseSchema },
      }),
      async (request) => {
        const actor = actorOf(request);
        const removed = await purgeAsAdmin(deps, uploads, request.body.confirm, actor, request.log);
        request.log.warn({ admin: actor.username, ip: actor.ip, removed }, 'event data purged');
        return { removed };
      },
    );

    secured.get(
      API_PATHS.adminStats,
      route({
        summary:
          'Figures: memories, questions, speakers, attendees, votes, per speaker and per hour',
        access: adminOnly,
        response: { 200: adminStatsSchema },
      }),
      () => adminStats(deps),
    );

    secured.get(
      API_PATHS.adminStatsCsv,
      route({
        summary: 'The overview as CSV: totals, per speaker, memories per hour',
        access: adminOnly,
        response: { 200: z.string() },
      }),
      async (_request, reply) => {
        reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', 'attachment; filename="stats.csv"');
        return statsCsv(await adminStats(deps));
      },
    );

    secured.get(
      API_PATHS.adminAudit,
      route({
        summary: 'The moderation log',
        access: adminOnly,
        querystring: adminAuditQuerySchema,
        response: { 200: z.array(adminAuditEntrySchema) },
      }),
      (request) => recentDeletions(deps.db, request.query),
    );
  };
  await app.register(securedRoutes);
};
