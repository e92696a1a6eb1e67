import type { DataStore } from '@tus/server';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { UPLOADS_PATH } from '../../shared/schemas/upload.ts';
import { requireAttendee } from '../auth/callers.ts';
import { accessRules, routeOptions } from '../auth/route-options.ts';
import type { AppDeps } from '../deps.ts';
import { pageRateLimit, writeRateLimit } from '../http/transport/rate-limits.ts';
import { createTusUploads } from './tus.service.ts';
import { cacheHeaders } from '../http/transport/cache-headers.ts';

/** The tus request whose errors Fastify's one error handler must answer. */
const TUS_CONTENT_TYPE = 'application/offset+octet-stream';

const uploadParamsSchema = z.object({ id: z.string().max(64) });

/**
 * Resumable uploads (tus 1.0) at `/api/uploads`, served by `@tus/server` inside the app
 * (`tus.service.ts`, which each route hands the request and reply): every request goes through
 * Fastify's hooks (security headers, cross-origin guard, connection limits, error shape) and a
 * rate limit, and needs an attendee token. `POST` makes an upload (its metadata checked at
 * once), `PATCH` sends bytes from `Upload-Offset`, `HEAD` answers how far it got, `DELETE`
 * abandons it. A finished upload becomes one memory through the pipeline of `POST /api/memories`
 * (decisions 166-168).
 */
export const uploadRoutes: FastifyPluginAsyncZod<{ deps: AppDeps; store: DataStore }> = async (
  app,
  { deps, store },
) => {
  const { config } = deps;
  const uploads = createTusUploads(deps, store, app.log);

  // PATCH bodies are the file's bytes: tus reads them as a stream, never whole.
  app.addContentTypeParser(TUS_CONTENT_TYPE, (_request, _payload, done) => {
    done(null);
  });

  const route = routeOptions('Uploads');
  const { attendee } = accessRules(deps.callers);
  const description = 'Refusals answer `{ error }` JSON with a 4xx, as every route does.';

  app.post(
    UPLOADS_PATH,
    route({
      summary:
        'Start a resumable upload (tus 1.0): Upload-Length and Upload-Metadata (filename, filetype, caption, username, optional postId)',
      description,
      access: attendee,
      limit: writeRateLimit(app, config.writeRateLimit),
    }),
    async (request, reply) => {
      const answer = await uploads.create(request.raw, reply, requireAttendee(request));
      return reply.code(answer.status).send(answer.body);
    },
  );

  // A PATCH per chunk: a phone sends a long video in many, so the limit is ten times a post's.
  const bytesLimit = writeRateLimit(app, {
    perClient: config.writeRateLimit.perClient * 10,
    perAddress: config.writeRateLimit.perAddress,
  });

  for (const method of ['HEAD', 'PATCH', 'DELETE'] as const) {
    app.route({
      method,
      url: `${UPLOADS_PATH}/:id`,
      ...route({
        summary: {
          HEAD: 'How far an upload got (Upload-Offset)',
          PATCH: 'Send bytes of an upload from Upload-Offset; the last ones make the memory',
          DELETE: 'Abandon an unfinished upload',
        }[method],
        description,
        access: attendee,
        limit: bytesLimit,
        params: uploadParamsSchema,
      }),
      handler: async (request, reply) => {
        const caller = requireAttendee(request);
        const answer = await uploads.resume(method, request.params.id, request.raw, reply, caller);
        return reply.code(answer.status).send(answer.body);
      },
    });
  }

  // What the server supports (no token needed).
  for (const url of [UPLOADS_PATH, `${UPLOADS_PATH}/:id`]) {
    app.options(
      url,
      {
        preHandler: pageRateLimit(app, config.pageRateLimit),
        schema: { tags: ['Uploads'], summary: 'tus versions, extensions and the largest upload' },
      },
      async (request, reply) => {
        await uploads.options(request.raw, reply);
        return cacheHeaders.noStore(reply.code(204)).send();
      },
    );
  }
};
