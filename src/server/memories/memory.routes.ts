import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponseSchema } from '../../shared/errors.ts';
import { API_PATHS } from '../../shared/routes.ts';
import {
  MEMORY_FILE_FIELDS,
  type MemoryPostFields,
  memoryListQuerySchema,
  memoryListSchema,
  memoryParamsSchema,
  memoryPostFieldsSchema,
  memoryPostResponseSchema,
  memorySchema,
  ownMemoriesSchema,
} from '../../shared/schemas/memory.ts';
import { messageResponseSchema } from '../../shared/schemas/common.ts';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAY_HEADER,
  idempotencyHeadersSchema,
} from '../../shared/schemas/upload.ts';
import { MAX_FILES_PER_POST } from '../../shared/constants.ts';
import { type Caller, attendeeOf, callerOf, requireAttendee } from '../auth/callers.ts';
import { authorize } from '../auth/policies.ts';
import { accessRules, routeOptions } from '../auth/route-options.ts';
import type { Config } from '../config.ts';
import type { AppDeps } from '../deps.ts';
import { badRequest, invalid, tooLarge } from '../http/errors.ts';
import { formRoutes, readMultipart } from '../http/transport/multipart.ts';
import { requesterKeyOf, writeRateLimit } from '../http/transport/rate-limits.ts';
import { listRoute } from '../lists/list-route.ts';
import { deleteOwnMemory, galleryView, ownMemoryIds, visibleMemory } from './memory.service.ts';
import { type ReadPostForm, postMemoryOnce } from './idempotency.service.ts';
import type { UploadContext } from './memory-upload.ts';
import { cacheHeaders } from '../http/transport/cache-headers.ts';

/** The post's text fields, checked; with a token, its username must be the token's (403). */
function parseFields(values: Record<string, string>, caller: Caller): MemoryPostFields {
  const parsed = memoryPostFieldsSchema.safeParse(values);
  if (!parsed.success) {
    throw invalid('schema', parsed.error.issues[0]?.message, 'memory');
  }
  authorize(caller, 'post as', parsed.data.username);
  return parsed.data;
}

/**
 * Reads a memory post's form: text fields `caption` and `username`, files in `files` or
 * `media`, each handed to `storeFile` as it arrives (and its bytes to `onFileBytes` when given).
 * `caller`: who sends it (the attendee of the token sent, or anyone).
 */
function readMemoryForm(
  request: FastifyRequest,
  config: Pick<Config, 'maxUploadMb'>,
  caller: Caller,
): ReadPostForm {
  return async (storeFile, onFileBytes) => {
    let fields: MemoryPostFields | undefined;
    const values = await readMultipart(
      request,
      {
        fileBytes: Math.floor(config.maxUploadMb * 1024 * 1024),
        fileFields: MEMORY_FILE_FIELDS,
        maxFiles: MAX_FILES_PER_POST,
        maxFields: 10,
        // A 2,000-character caption in any script fits.
        fieldBytes: 16 * 1024,
        refusals: {
          tooLarge: (name) => tooLarge('memoryFile', name, config.maxUploadMb),
          tooManyFiles: () => badRequest('tooManyMemoryFiles', MAX_FILES_PER_POST),
        },
        ...(onFileBytes ? { onFileBytes } : {}),
      },
      storeFile,
      // When the text comes first (as the app sends it), refuse bad text before any upload.
      (values) => {
        if (!fields && 'caption' in values && 'username' in values) {
          fields = parseFields(values, caller);
        }
      },
    );
    return fields ?? parseFields(values, caller);
  };
}

/** The gallery's routes: post a memory, list them (ETag / 304), read one. */
export const memoryRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const { config } = deps;
  // Made at start; what a process that stopped left here goes with the orphan sweeps.
  const stagingDir = path.join(config.dataDir, 'uploads');

  const upload: UploadContext = {
    media: deps.media,
    stagingDir,
    images: deps.images,
    videos: deps.videos,
  };

  const access = accessRules(deps.callers);
  const limited = writeRateLimit(app, config.writeRateLimit);
  const requesterKey = requesterKeyOf(app);
  const route = routeOptions('Memories');

  await app.register(
    formRoutes(async (forms) => {
      forms.post(
        API_PATHS.memoryCreate,
        route({
          summary: 'Post a memory: a caption and up to 10 photos or videos',
          description:
            'With an `Idempotency-Key` header (1 to 100 visible ASCII characters, one per post), a ' +
            'repeat of the same post with the same key from the same client within 24 hours ' +
            'answers the first result and creates nothing; another post with a key its client ' +
            'used already is refused with 422 `IDEMPOTENCY_KEY_REUSED`.',
          // The attendee token is optional (the spec's call works without one); one that is sent
          // must be valid, makes its attendee the memory's owner (decision 142) and is the client
          // its `Idempotency-Key` belongs to (decision 193).
          access: access.anyoneOrAttendee,
          limit: limited,
          headers: idempotencyHeadersSchema,
          response: {
            201: memoryPostResponseSchema,
            400: errorResponseSchema,
            413: errorResponseSchema,
            415: errorResponseSchema,
            422: errorResponseSchema,
          },
        }),
        async (request, reply) => {
          cacheHeaders.noStore(reply.code(201));
          const caller = callerOf(request);
          const owner = attendeeOf(request);
          const key = request.headers[IDEMPOTENCY_KEY_HEADER];
          const { response, replayed } = await postMemoryOnce(
            deps,
            upload,
            readMemoryForm(request, config, caller),
            {
              owner,
              // Keys are the client's own (decision 193): its attendee, else its client id at its
              // address, else its connection, as a rate limit counts it.
              idempotency:
                typeof key === 'string' ? { client: requesterKey(request), key } : undefined,
            },
          );
          if (replayed) reply.header(IDEMPOTENT_REPLAY_HEADER, 'true');
          return response;
        },
      );
    }),
  );

  // Registered before `/api/memories/:id` would be: a static segment wins over a parameter.
  app.get(
    API_PATHS.ownMemories,
    route({
      summary: "The ids of the caller's own memories (those their attendee token posted)",
      access: access.attendee,
      response: { 200: ownMemoriesSchema, '4xx': errorResponseSchema },
    }),
    async (request, reply) => {
      const attendee = requireAttendee(request);
      cacheHeaders.privateNoStore(reply);
      return { ids: await ownMemoryIds(deps, attendee) };
    },
  );

  app.delete(
    `${API_PATHS.memoryCreate}/:id`,
    route({
      summary: 'Delete a memory you posted (the attendee whose token posted it)',
      access: access.attendee,
      limit: limited,
      bodyLimit: 1024,
      params: memoryParamsSchema,
      response: { 200: messageResponseSchema, '4xx': errorResponseSchema },
    }),
    async (request) => {
      const attendee = requireAttendee(request);
      await deleteOwnMemory(deps, request.params.id, attendee);
      request.log.info(
        { attendeeId: attendee.id, memoryId: request.params.id },
        'attendee deleted their memory',
      );
      return { message: 'Memory deleted' };
    },
  );

  // The page every attendee's gallery polls every 3 s (decision 101).
  await app.register(
    listRoute(deps.lists, {
      url: API_PATHS.memoryList,
      tags: ['Memories'],
      summary: 'The gallery, newest first',
      querystring: memoryListQuerySchema,
      response: memoryListSchema,
      view: ({ query }) => galleryView(deps, query),
    }),
  );

  app.get(
    `${API_PATHS.memoryList}/:id`,
    route({
      summary: 'One memory',
      // With the token that posted it, a memory awaiting approval is its poster's to see.
      access: access.anyoneOrAttendee,
      params: memoryParamsSchema,
      response: { 200: memorySchema },
    }),
    async (request, reply) => {
      const memory = await visibleMemory(deps, request.params.id, callerOf(request));
      // One awaiting approval is its poster's alone: no shared cache keeps it.
      if (memory.status === 'published') cacheHeaders.revalidate(reply);
      else cacheHeaders.privateNoStore(reply);
      return memory;
    },
  );
};
