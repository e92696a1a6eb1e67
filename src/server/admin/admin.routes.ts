import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ADMIN_TEXTS } from '../../shared/constants.ts';
import { API_PATHS } from '../../shared/routes.ts';
import {
  adminAuditEntrySchema,
  adminAuditQuerySchema,
  adminCheckResponseSchema,
  adminLoginRequestSchema,
  adminLoginResponseSchema,
  adminMediaParamsSchema,
  adminMediaQuerySchema,
} from '../../shared/schemas/admin.ts';
import { messageResponseSchema } from '../../shared/schemas/common.ts';
import {
  memorySchema,
  memoryStatusUpdateSchema,
  memoryUpdateResponseSchema,
} from '../../shared/schemas/memory.ts';
import type { AppDeps } from '../deps.ts';
import { HttpError } from '../http/errors.ts';
import { ADMIN_TOKEN } from '../http/openapi.ts';
import { writeRateLimit } from '../http/rate-limits.ts';
import { WHOLE_LIST } from '../lists/list-cache.ts';
import { listRoute } from '../lists/list-route.ts';
import type { AdminSession } from './admin-token.ts';
import {
  adminStatsSchema,
  settingsResponseSchema,
  settingsUpdateSchema,
} from '../../shared/schemas/settings.ts';
import { errorResponseSchema } from '../../shared/errors.ts';
import { formRoutes, readMultipart } from '../http/multipart.ts';
import { LOGO_MAX_MB, publicPart, removeLogo, replaceLogo } from '../settings/settings.service.ts';
import { archiveSize } from '../memories/memory.repository.ts';
import { memoriesArchive } from './memories-archive.ts';
import {
  adminStats,
  statsCsv,
  approveMemoryAsAdmin,
  deleteMemoryAsAdmin,
  listForModeration,
  moderationView,
  recentDeletions,
} from './admin.service.ts';

const SESSION = 'adminSession';

/** Archives of every memory made at once by one instance (`GET /api/admin/memories.zip`). */
const MAX_ARCHIVES_AT_ONCE = 2;

const UNAUTHORIZED_MESSAGES = {
  missing: 'Admin login required',
  malformed: 'Invalid admin token',
  forged: 'Invalid admin token',
  expired: 'Your admin session has expired; log in again',
} as const;

/**
 * Admin login, the token check, moderation of memories and the moderation log. Every route
 * but the login answers 401 before doing anything else when the Bearer token is not valid.
 */
export const adminRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const auth = deps.callers.admin;

  app.post(
    API_PATHS.adminLogin,
    {
      preHandler: writeRateLimit(app, deps.config.writeRateLimit),
      schema: {
        tags: ['Admin'],
        summary: 'Log in as the admin and get a token',
        body: adminLoginRequestSchema,
        response: { 200: adminLoginResponseSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const result = await auth.login(request.body, request.ip);
      if (result.outcome === 'blocked') {
        const seconds = Math.ceil(result.retryAfterMs / 1000);
        const minutes = Math.ceil(seconds / 60);
        const wait =
          seconds < 60
            ? `${seconds} second${seconds === 1 ? '' : 's'}`
            : `${minutes} minute${minutes === 1 ? '' : 's'}`;
        request.log.warn(
          { ip: request.ip, retryAfterSeconds: seconds },
          'admin login refused: too many failed attempts',
        );
        reply.header('retry-after', String(seconds));
        throw new HttpError(429, `Too many failed login attempts. Try again in ${wait}.`);
      }
      if (result.outcome === 'invalid') {
        request.log.warn(
          {
            ip: request.ip,
            username: request.body.username.slice(0, 60),
            failures: result.failures,
          },
          'admin login failed',
        );
        throw new HttpError(401, ADMIN_TEXTS.invalidCredentials);
      }
      request.log.info({ ip: request.ip, username: result.session.username }, 'admin logged in');
      return {
        message: 'Login successful',
        token: result.token,
        expiresAt: result.session.expiresAt.toISOString(),
      };
    },
  );

  const securedRoutes: FastifyPluginAsyncZod = async (secured) => {
    secured.decorateRequest(SESSION, null);
    // onRequest runs before the body is read or the input validated: no work without a token.
    secured.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      const check = await auth.authenticate(request.headers.authorization);
      if (!check.ok) {
        reply.header(
          'www-authenticate',
          check.reason === 'missing'
            ? 'Bearer realm="admin"'
            : `Bearer realm="admin", error="invalid_token"`,
        );
        request.log.info({ ip: request.ip, reason: check.reason }, 'admin request refused');
        throw new HttpError(401, UNAUTHORIZED_MESSAGES[check.reason]);
      }
      request.setDecorator<AdminSession>(SESSION, check.session);
      reply.header('cache-control', 'private, no-cache');
      reply.header('vary', 'Authorization');
    });
    const sessionOf = (request: FastifyRequest) => request.getDecorator<AdminSession>(SESSION);

    secured.get(
      API_PATHS.adminCheck,
      {
        schema: {
          tags: ['Admin'],
          summary: 'Check the admin token',
          security: ADMIN_TOKEN,
          response: { 200: adminCheckResponseSchema },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        const session = sessionOf(request);
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
        security: ADMIN_TOKEN,
        querystring: adminMediaQuerySchema,
        response: z.array(memorySchema),
        view: ({ query }) => ({
          topic: 'memories',
          scope: WHOLE_LIST,
          key: moderationView(query),
          rows: () => listForModeration(deps.db, query),
        }),
      }),
    );

    secured.delete(
      `${API_PATHS.adminMedia}/:id`,
      {
        preHandler: writeRateLimit(secured, deps.config.writeRateLimit),
        schema: {
          tags: ['Admin'],
          summary: 'Delete a memory',
          security: ADMIN_TOKEN,
          params: adminMediaParamsSchema,
          response: { 200: messageResponseSchema },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        const session = sessionOf(request);
        const result = await deleteMemoryAsAdmin(deps, request.params.id, {
          username: session.username,
          ip: request.ip,
        });
        if (result === 'not-found') throw new HttpError(404, 'Memory not found');
        request.log.info(
          { ip: request.ip, admin: session.username, memoryId: request.params.id },
          'admin deleted a memory',
        );
        return { message: 'Memory deleted' };
      },
    );

    secured.patch(
      `${API_PATHS.adminMedia}/:id`,
      {
        preHandler: writeRateLimit(secured, deps.config.writeRateLimit),
        bodyLimit: 1024,
        schema: {
          tags: ['Admin'],
          summary: 'Approve a memory awaiting approval',
          security: ADMIN_TOKEN,
          params: adminMediaParamsSchema,
          body: memoryStatusUpdateSchema,
          response: { 200: memoryUpdateResponseSchema },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        const session = sessionOf(request);
        const memory = await approveMemoryAsAdmin(deps, request.params.id, {
          username: session.username,
          ip: request.ip,
        });
        if (!memory) throw new HttpError(404, 'Memory not found');
        request.log.info(
          { ip: request.ip, admin: session.username, memoryId: memory._id },
          'admin approved a memory',
        );
        return { memory };
      },
    );

    // Few archives at a time per instance: each holds a file open and a connection busy.
    let archivesRunning = 0;
    secured.get(
      API_PATHS.adminMemoriesZip,
      {
        preHandler: writeRateLimit(secured, deps.config.writeRateLimit),
        schema: {
          tags: ['Admin'],
          summary: 'Every published memory in one ZIP, streamed',
          security: ADMIN_TOKEN,
          produces: ['application/zip'],
        },
      },
      async (request, reply) => {
        if (archivesRunning >= MAX_ARCHIVES_AT_ONCE) {
          reply.header('retry-after', '30');
          throw new HttpError(
            429,
            'An archive of the memories is being made already; try again when it is done',
          );
        }
        archivesRunning += 1;
        let released = false;
        const release = () => {
          if (released) return;
          released = true;
          archivesRunning -= 1;
        };
        let archive: Readable;
        let size: { files: number; bytes: number };
        try {
          size = await archiveSize(deps.db);
          archive = await memoriesArchive(deps, request.log);
        } catch (error) {
          release();
          throw error;
        }
        archive.once('close', release);
        reply.raw.once('close', release);
        const day = deps.clock.now().toISOString().slice(0, 10);
        request.log.info(
          { admin: sessionOf(request).username, files: size.files, bytes: size.bytes },
          'admin downloads every memory',
        );
        return (
          reply
            .type('application/zip')
            // The admin's, and made for this request: never kept by any cache.
            .header('cache-control', 'no-store')
            .header('content-disposition', `attachment; filename="memories-${day}.zip"`)
            .header('x-archive-files', String(size.files))
            .header('x-archive-bytes', String(size.bytes))
            .send(archive)
        );
      },
    );

    secured.get(
      API_PATHS.adminSettings,
      {
        schema: {
          tags: ['Admin'],
          summary: 'The settings',
          security: ADMIN_TOKEN,
          response: { 200: settingsResponseSchema },
        },
      },
      async (_request, reply) => {
        reply.header('cache-control', 'no-store');
        return deps.settings.withLogo;
      },
    );

    secured.put(
      API_PATHS.adminSettings,
      {
        preHandler: writeRateLimit(secured, deps.config.writeRateLimit),
        bodyLimit: 4096,
        schema: {
          tags: ['Admin'],
          summary: 'Change any of the settings',
          security: ADMIN_TOKEN,
          body: settingsUpdateSchema,
          response: { 200: settingsResponseSchema },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        await deps.settings.update(request.body);
        request.log.info(
          { admin: sessionOf(request).username, change: request.body },
          'settings changed',
        );
        // Every open page takes the new name, colour and the wall's pace at once.
        deps.realtime.settingsUpdated(publicPart(deps.settings.publicBranding()));
        return deps.settings.withLogo;
      },
    );

    await secured.register(
      formRoutes(async (forms) => {
        forms.put(
          API_PATHS.adminSettingsLogo,
          {
            preHandler: writeRateLimit(secured, deps.config.writeRateLimit),
            schema: {
              tags: ['Admin'],
              summary: "Set the event's logo (multipart, one image in `logo`)",
              security: ADMIN_TOKEN,
              response: { 200: settingsResponseSchema, '4xx': errorResponseSchema },
            },
          },
          async (request, reply) => {
            reply.header('cache-control', 'no-store');
            const chunks: Buffer[] = [];
            await readMultipart(
              request,
              {
                fileBytes: LOGO_MAX_MB * 1024 * 1024,
                fileFields: ['logo'],
                maxFiles: 1,
                maxFields: 0,
                fieldBytes: 1024,
                messages: {
                  tooLarge: () => `The logo is larger than ${LOGO_MAX_MB} MB`,
                  tooManyFiles: 'Send one logo only',
                },
              },
              async (file) => {
                for await (const chunk of file.body) chunks.push(chunk);
              },
            );
            const picture = Buffer.concat(chunks);
            if (picture.length === 0) throw new HttpError(400, 'Send the logo as the file `logo`');
            await replaceLogo(deps, picture);
            request.log.info({ admin: sessionOf(request).username }, 'logo changed');
            return deps.settings.withLogo;
          },
        );
      }),
    );

    secured.delete(
      API_PATHS.adminSettingsLogo,
      {
        preHandler: writeRateLimit(secured, deps.config.writeRateLimit),
        schema: {
          tags: ['Admin'],
          summary: "Remove the event's logo (the app's own shows again)",
          security: ADMIN_TOKEN,
          response: { 200: settingsResponseSchema },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        if (await removeLogo(deps)) {
          request.log.info({ admin: sessionOf(request).username }, 'logo removed');
        }
        return deps.settings.withLogo;
      },
    );

    secured.get(
      API_PATHS.adminStats,
      {
        schema: {
          tags: ['Admin'],
          summary:
            'Figures: memories, questions, speakers, attendees, votes, per speaker and per hour',
          security: ADMIN_TOKEN,
          response: { 200: adminStatsSchema },
        },
      },
      async (_request, reply) => {
        reply.header('cache-control', 'no-store');
        return adminStats(deps);
      },
    );

    secured.get(
      API_PATHS.adminStatsCsv,
      {
        schema: {
          tags: ['Admin'],
          summary: 'The overview as CSV: totals, per speaker, memories per hour',
          security: ADMIN_TOKEN,
          response: { 200: z.string() },
        },
      },
      async (_request, reply) => {
        reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', 'attachment; filename="stats.csv"')
          .header('cache-control', 'no-store');
        return statsCsv(await adminStats(deps));
      },
    );

    secured.get(
      API_PATHS.adminAudit,
      {
        schema: {
          tags: ['Admin'],
          summary: 'The moderation log',
          security: ADMIN_TOKEN,
          querystring: adminAuditQuerySchema,
          response: { 200: z.array(adminAuditEntrySchema) },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return recentDeletions(deps.db, request.query);
      },
    );
  };
  await app.register(securedRoutes);
};
