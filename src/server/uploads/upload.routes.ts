import path from 'node:path';
import { Readable } from 'node:stream';
import { type DataStore, EVENTS, Server } from '@tus/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { UPLOADS_PATH } from '../../shared/schemas/upload.ts';
import { type Caller, requireAttendee } from '../auth/callers.ts';
import { authorize, can } from '../auth/policies.ts';
import { accessRules, routeOptions } from '../auth/route-options.ts';
import type { AppDeps } from '../deps.ts';
import {
  badRequest,
  conflict,
  forbidden,
  notFound,
  passedOn,
  unauthorized,
  unsupported,
} from '../http/errors.ts';
import { pageRateLimit, writeRateLimit } from '../http/transport/rate-limits.ts';
import { newId } from '../lib/ids.ts';
import type { UploadContext } from '../memories/memory-upload.ts';
import {
  deleteResumableUpload,
  findResumableUpload,
  postOfAnother,
  touchResumableUpload,
} from './upload.repository.ts';
import {
  createFinisher,
  createUploadRoom,
  parseUploadMetadata,
  removeUploadFiles,
} from './upload.service.ts';
import { cacheHeaders } from '../http/transport/cache-headers.ts';

/** The tus request whose errors Fastify's one error handler must answer. */
const TUS_CONTENT_TYPE = 'application/offset+octet-stream';

const uploadParamsSchema = z.object({ id: z.string().max(64) });

/** Whether an error is one of tus's own answers (a status and a text), not a failure. */
const isTusAnswer = (error: unknown): boolean =>
  typeof error === 'object' &&
  error !== null &&
  'status_code' in error &&
  typeof error.status_code === 'number';

/**
 * Resumable uploads (tus 1.0) at `/api/uploads`, served by `@tus/server` inside the app: every
 * request goes through Fastify's hooks (security headers, cross-origin guard, connection limits,
 * error shape) and a rate limit, and needs an attendee token. `POST` makes an upload (its
 * metadata checked at once), `PATCH` sends bytes from `Upload-Offset`, `HEAD` answers how far it
 * got, `DELETE` abandons it. A finished upload becomes one memory through the pipeline of
 * `POST /api/memories` (decisions 166-168).
 */
export const uploadRoutes: FastifyPluginAsyncZod<{ deps: AppDeps; store: DataStore }> = async (
  app,
  { deps, store },
) => {
  const { config } = deps;
  const maxBytes = Math.floor(config.maxUploadMb * 1024 * 1024);
  const context: UploadContext = {
    media: deps.media,
    stagingDir: path.join(config.dataDir, 'uploads'),
    images: deps.images,
    videos: deps.videos,
  };
  const finisher = createFinisher(deps, context, store, app.log);
  const room = createUploadRoom(deps, store, config);
  /** The attendee of each request handed to tus, and the error it failed with. */
  const owners = new WeakMap<Request, Caller>();
  const failures = new WeakMap<Request, unknown>();
  /** The upload a POST reserved room for, and the POSTs whose upload the store made. */
  const reserved = new WeakMap<Request, string>();
  const created = new WeakSet<Request>();
  const now = () => deps.clock.now().toISOString();

  const tus = new Server({
    path: UPLOADS_PATH,
    datastore: store,
    maxSize: maxBytes,
    relativeLocation: true,
    // Cross-origin calls are the app's guard's to allow (its CORS headers are set before).
    allowedOrigins: [],
    disableTerminationForFinishedUploads: true,
    // UUIDv7, like every id of the app: they sort by time.
    namingFunction: () => newId(),
    onUploadCreate: async (request, upload) => {
      const attendee = owners.get(request);
      if (attendee?.kind !== 'attendee') throw unauthorized('signInToUpload');
      const fields = parseUploadMetadata(upload.metadata);
      authorize(attendee, 'post as', fields.username);
      if (fields.filetype && !/^(image|video)\//i.test(fields.filetype)) {
        throw unsupported('memoryFile', fields.filename);
      }
      if (upload.size === 0) throw badRequest('empty', fields.filename);
      if (fields.postId && (await postOfAnother(deps.db, fields.postId, fields.username))) {
        throw forbidden('notYourPost');
      }
      // Its row, if there is room for it (else a 429 or 413, and nothing is written).
      await room.reserve({ id: upload.id, attendeeId: attendee.id, sizeBytes: upload.size ?? 0 });
      reserved.set(request, upload.id);
      return {};
    },
    onUploadFinish: async (_request, upload) => {
      const result = await finisher.finish(upload);
      if ('refused' in result) throw result.refused;
      return { headers: { 'Memory-Id': result.memoryId } };
    },
    onResponseError: async (request, error) => {
      // A POST whose upload the store failed to make: its reserved room is given back.
      const id = reserved.get(request);
      if (id !== undefined && !created.has(request)) {
        await deleteResumableUpload(deps.db, id);
        await removeUploadFiles(store, id).catch(() => undefined);
      }
      // tus's own answers (a wrong offset, a missing header) keep their status and text; any
      // other failure goes to the app's error handler below.
      if (isTusAnswer(error)) return undefined;
      failures.set(request, error);
      return { status_code: 500, body: 'failed' };
    },
  });
  tus.on(EVENTS.POST_CREATE, (request) => {
    created.add(request);
  });

  /** Hands the request to tus and sends its answer through Fastify. */
  async function forward(request: FastifyRequest, reply: FastifyReply, attendee: Caller) {
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const hasBody = request.method === 'PATCH' || request.method === 'POST';
    const webRequest = new Request(new URL(request.url, 'http://app.invalid'), {
      method: request.method,
      headers,
      ...(hasBody
        ? { body: Readable.toWeb(request.raw) as ReadableStream<Uint8Array>, duplex: 'half' }
        : {}),
    });
    owners.set(webRequest, attendee);
    const response = await tus.handleWeb(webRequest);
    if (hasBody && !request.raw.complete) {
      // Answered before its bytes were read (a wrong offset, a refusal): the rest is not
      // wanted, and the connection closes with the answer instead of waiting for it.
      reply.header('connection', 'close');
      reply.raw.once('finish', () => request.raw.destroy());
    }
    const failure = failures.get(webRequest);
    if (failure !== undefined)
      throw failure instanceof Error ? failure : new Error('The upload failed', { cause: failure });
    response.headers.forEach((value, name) => {
      if (name !== 'content-length' && name !== 'connection') reply.header(name, value);
      if (name === 'connection' && value === 'close') reply.header(name, value);
    });
    cacheHeaders.noStore(reply);
    const text = await response.text();
    if (response.status >= 400) {
      throw passedOn(response.status, text.trim() || 'The upload was refused');
    }
    return { status: response.status, headers: response.headers, text };
  }

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
      if (request.headers['upload-length'] === undefined) {
        throw badRequest('uploadLength');
      }
      const answer = await forward(request, reply, requireAttendee(request));
      return reply.code(answer.status).send(answer.text || undefined);
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
        const { id } = request.params;
        const row = await findResumableUpload(deps.db, id);
        // Somebody else's upload is as unknown as a missing one.
        if (!row || !can(caller, 'continue upload', row)) {
          throw notFound('upload');
        }
        cacheHeaders.noStore(reply.header('tus-resumable', '1.0.0'));
        if (row.memoryId) {
          // Finished: its memory is made and its bytes are gone; it answers as complete, so a
          // client that lost the last answer finishes instead of sending it all again.
          const size = String(row.sizeBytes);
          reply.header('upload-offset', size).header('upload-length', size);
          reply.header('memory-id', row.memoryId);
          if (method === 'HEAD') return reply.code(200).send();
          if (method === 'PATCH' && request.headers['upload-offset'] === size) {
            return reply.code(204).send();
          }
          if (method === 'DELETE') throw forbidden('finishedUpload');
          throw conflict('uploadFinished');
        }
        if (method === 'PATCH') await touchResumableUpload(deps.db, id, now());
        let answer;
        try {
          answer = await forward(request, reply, caller);
        } finally {
          if (method === 'PATCH') await touchResumableUpload(deps.db, id, now());
        }
        if (method === 'DELETE') await deleteResumableUpload(deps.db, id);
        if (method === 'HEAD') {
          const offset = answer.headers.get('upload-offset');
          if (offset !== null && offset === answer.headers.get('upload-length')) {
            // Every byte arrived but no memory was made (the last PATCH failed on the way):
            // make it now, or answer why it is refused.
            const result = await finisher.finish(await store.getUpload(id));
            if ('refused' in result) throw result.refused;
            reply.header('memory-id', result.memoryId);
          }
        }
        return reply.code(answer.status).send(answer.text || undefined);
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
        const response = await tus.handleWeb(
          new Request(new URL(request.url, 'http://app.invalid'), { method: 'OPTIONS' }),
        );
        response.headers.forEach((value, name) => {
          if (name.toLowerCase().startsWith('tus-')) reply.header(name, value);
        });
        return cacheHeaders.noStore(reply.code(204)).send();
      },
    );
  }
};
