import { type Hash, createHash } from 'node:crypto';
import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponseSchema } from '../../shared/errors.ts';
import { API_PATHS, CLIENT_PATHS, memorySharePath } from '../../shared/routes.ts';
import {
  MEMORY_FILE_FIELDS,
  type Memory,
  type MemoryPostResponse,
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
import { idSchema } from '../../shared/schemas/common.ts';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAY_HEADER,
  idempotencyHeadersSchema,
} from '../../shared/schemas/upload.ts';
import { MAX_FILES_PER_POST } from '../../shared/constants.ts';
import { type Caller, attendeeOf, callerOf, requireAttendee } from '../auth/callers.ts';
import { authorize, can } from '../auth/policies.ts';
import { accessRules, routeOptions } from '../auth/route-options.ts';
import type { Config } from '../config.ts';
import type { AppDeps } from '../deps.ts';
import type { PageHead } from '../http/pages/client-app.ts';
import {
  badRequest,
  conflict,
  idempotencyKeyReused,
  invalid,
  notFound,
  tooLarge,
} from '../http/errors.ts';
import { formRoutes, readMultipart } from '../http/transport/multipart.ts';
import { requesterKeyOf, writeRateLimit } from '../http/transport/rate-limits.ts';
import { WHOLE_LIST } from '../lists/list-cache.ts';
import { listRoute } from '../lists/list-route.ts';
import {
  findMemory,
  listGalleryPage,
  listMemories,
  listOwnMemoryIds,
} from './memory.repository.ts';
import {
  AlreadyPostedError,
  type PostedMemories,
  deleteOwnMemory,
  memoriesView,
  postMemory,
} from './memory.service.ts';
import {
  type IdempotentEntry,
  findIdempotentEntry,
  saveIdempotentEntry,
} from './idempotency.repository.ts';
import type { StoreFile, UploadContext } from './memory-upload.ts';
import { postedMessage } from '../../shared/constants.ts';
import { cacheHeaders } from '../http/transport/cache-headers.ts';

/** The most own-memory ids `GET /api/memories/mine` answers (an attendee's recent posts). */
const OWN_MEMORIES_MAX = 500;

/** The gallery page a poll without a query asks for. */
const DEFAULT_MEMORY_PAGE = memoryListQuerySchema.parse({});

/** The name of one gallery page's answer: every spelling of the same page shares it. */
const galleryView = (page: { limit: number; before?: string | undefined }) =>
  JSON.stringify(['gallery', page.limit, page.before ?? null]);

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
 * A post's fingerprint, made while it streams in: the SHA-256 of its text fields (caption and
 * username, as read) and of each file's bytes, in the order sent. `onFileBytes` sees the files'
 * bytes; `digest` answers it once the form is read.
 */
function postFingerprint() {
  const files: (Hash | undefined)[] = [];
  let digest: string | undefined;
  return {
    onFileBytes: (file: number, chunk: Buffer): void => {
      (files[file] ??= createHash('sha256')).update(chunk);
    },
    digest: (fields: MemoryPostFields): string => {
      digest ??= createHash('sha256')
        .update(
          JSON.stringify([
            fields.caption,
            fields.username,
            // A file without a byte has no hash of its own: the empty string's.
            Array.from(files, (file) => (file ?? createHash('sha256')).digest('hex')),
          ]),
        )
        .digest('hex');
      return digest;
    },
  };
}

type PostFingerprint = ReturnType<typeof postFingerprint>;

/**
 * Reads a memory post's form: text fields `caption` and `username`, files in `files` or
 * `media`, each handed to `storeFile` as it arrives; with `fingerprint`, every file's bytes go
 * through it too. `caller`: who sends it (the attendee of the token sent, or anyone).
 */
function readMemoryForm(
  request: FastifyRequest,
  config: Pick<Config, 'maxUploadMb'>,
  caller: Caller,
  fingerprint?: PostFingerprint,
) {
  return async (storeFile: StoreFile): Promise<MemoryPostFields> => {
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
        ...(fingerprint ? { onFileBytes: fingerprint.onFileBytes } : {}),
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

/**
 * The answer to a post: its memories, the files refused on their own, and a message that says
 * whether they await approval and which files were not shared (decision 144).
 */
const answerOf = ({ memories, refused }: PostedMemories): MemoryPostResponse => {
  const pending = memories.some((memory) => memory.status === 'pending');
  return { message: postedMessage(memories.length, refused, pending), memories, refused };
};

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
          if (typeof key !== 'string') {
            return answerOf(
              await postMemory(deps, upload, readMemoryForm(request, config, caller), { owner }),
            );
          }
          // Keys are the client's own (decision 193): its attendee, else its client id at its
          // address, else its connection, as a rate limit counts it.
          const client = requesterKey(request);
          const fingerprint = postFingerprint();
          let fields: MemoryPostFields | undefined;
          const read = async (storeFile: StoreFile) =>
            (fields = await readMemoryForm(request, config, caller, fingerprint)(storeFile));
          /** The first post's answer to its repeat; another post with its key is refused. */
          const replay = (first: IdempotentEntry) => {
            if (
              first.fingerprint !== null &&
              fields &&
              first.fingerprint !== fingerprint.digest(fields)
            ) {
              throw idempotencyKeyReused('reused');
            }
            return reply
              .header(IDEMPOTENT_REPLAY_HEADER, 'true')
              .send(first.response as MemoryPostResponse);
          };
          const first = await findIdempotentEntry(deps.db, client, key);
          if (first) {
            // A repeat (an answer lost to the network) gets the first answer, once its bytes
            // show it is the same post: they are read, not stored, and nothing is made again.
            await read((file) => file.skip());
            return replay(first);
          }
          try {
            const posted = await postMemory(deps, upload, read, {
              owner,
              alongside: async (trx, inserted) => {
                const response = answerOf(inserted);
                const createdAt = deps.clock.now().toISOString();
                const entry = {
                  client,
                  key,
                  // The form is read whole before its memories are written.
                  fingerprint: fields ? fingerprint.digest(fields) : '',
                  response,
                  createdAt,
                };
                if (!(await saveIdempotentEntry(trx, entry))) throw new AlreadyPostedError();
              },
            });
            return answerOf(posted);
          } catch (error) {
            // The same post sent twice at once: the one that committed first is the answer.
            if (!(error instanceof AlreadyPostedError)) throw error;
            const winner = await findIdempotentEntry(deps.db, client, key);
            if (!winner) throw conflict('postBeingSent');
            return replay(winner);
          }
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
      return { ids: await listOwnMemoryIds(deps.db, attendee.id, OWN_MEMORIES_MAX) };
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
      view: ({ query }) => memoriesView(galleryView(query), () => listGalleryPage(deps.db, query)),
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
      const found = await findMemory(deps.db, request.params.id);
      if (!found) throw notFound('memory');
      if (found.memory.status !== 'published') {
        // A memory awaiting approval is nobody's business but the admin's and its poster's.
        const memory = { status: found.memory.status, ownerId: found.ownerId };
        if (!can(callerOf(request), 'see memory', memory)) {
          throw notFound('memory');
        }
        cacheHeaders.privateNoStore(reply);
        return found.memory;
      }
      cacheHeaders.revalidate(reply);
      return found.memory;
    },
  );
};

const DESCRIPTION_MAX = 200;
const clip = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;

/**
 * The gallery's first picture, which is what a phone's screen shows largest on /home and
 * /memories: the newest memory's thumbnail, preloaded from the page (decision 072). Read once
 * per version of the gallery, as its first page is.
 */
export function galleryPageImages(deps: Pick<AppDeps, 'db' | 'lists'>) {
  let known: { tag: string; images: Promise<string[]> } | undefined;
  const readNewest = async (): Promise<string[]> => {
    const [newest] = await listMemories(deps.db, {
      ...DEFAULT_MEMORY_PAGE,
      limit: 1,
      status: 'published',
    });
    if (!newest) return [];
    // A video's tile is its poster's small picture (decision 154).
    const isImage = newest.contentType.startsWith('image/');
    const url = newest.thumbnail ?? (isImage ? newest.media : null);
    return url ? [url] : [];
  };
  const newestThumbnail = async (): Promise<string[]> => {
    // The version is read before the row: a change in between only costs one more read.
    const tag = await deps.lists.version('memories', WHOLE_LIST);
    if (known?.tag !== tag) {
      const entry = { tag, images: readNewest() };
      known = entry;
      // A failed read is not kept: the next page load tries again.
      entry.images.catch(() => {
        if (known === entry) known = undefined;
      });
    }
    return known.images;
  };
  return { [CLIENT_PATHS.home]: newestThumbnail, [CLIENT_PATHS.memories]: newestThumbnail };
}

/**
 * The picture a link preview shows for a memory: the display rendition of a photo; for a video
 * its still frame when it has one, else none. One place, so the video's poster plugs in here.
 */
export const previewImageOf = (
  memory: Memory,
): { url: string; type?: string; width?: number; height?: number } | undefined => {
  if (memory.contentType.startsWith('image/')) {
    return {
      url: memory.media,
      type: memory.contentType,
      ...(memory.width && memory.height ? { width: memory.width, height: memory.height } : {}),
    };
  }
  // A video's link preview is its poster (decision 154).
  if (memory.poster) return { url: memory.poster, type: 'image/jpeg' };
  return memory.thumbnail ? { url: memory.thumbnail } : undefined;
};

/**
 * The Open Graph and `twitter:card` tags naming one published memory, with absolute URLs from
 * `PUBLIC_URL` (paths when it is unset), never from the request's Host header (decision 134).
 * `url` is the address the tags name as the page's own.
 */
export function memoryHead(
  memory: Memory,
  config: Pick<Config, 'publicUrl' | 'eventName'>,
  eventName: string,
  path: string,
): PageHead {
  const origin = config.publicUrl ?? '';
  const title = `${memory.username}'s memory at ${eventName}`;
  const caption = memory.text.replace(/\s+/g, ' ').trim();
  const description = clip(caption, DESCRIPTION_MAX);
  const image = previewImageOf(memory);
  const imageUrl = image && `${origin}${image.url}`;
  const imageAlt = image && clip(memory.text, 400);
  const imageSize = image?.width && image.height ? image : undefined;
  const isImage = memory.contentType.startsWith('image/');
  // Each tag in the order it is written; one without content (`undefined`) is left out.
  const openGraph: [string, string | undefined][] = [
    ['site_name', eventName],
    ['type', isImage ? 'article' : 'video.other'],
    ['title', title],
    ['description', description],
    ['url', `${origin}${path}`],
    ['image', imageUrl],
    ['image:alt', imageAlt],
    ['image:type', image?.type],
    ['image:width', imageSize && String(imageSize.width)],
    ['image:height', imageSize && String(imageSize.height)],
    ['video', isImage ? undefined : `${origin}${memory.media}`],
    ['video:type', isImage ? undefined : memory.contentType],
  ];
  const twitter: [string, string | undefined][] = [
    ['card', image ? 'summary_large_image' : 'summary'],
    ['title', title],
    ['description', description],
    ['image', imageUrl],
    ['image:alt', imageAlt],
  ];
  const meta: PageHead['meta'] = [
    ...openGraph.flatMap(([tag, content]) =>
      content === undefined ? [] : [{ property: `og:${tag}`, content }],
    ),
    ...twitter.flatMap(([tag, content]) =>
      content === undefined ? [] : [{ name: `twitter:${tag}`, content }],
    ),
    { name: 'description', content: description },
  ];
  return { title, meta };
}

/** A published memory by id, or undefined (also for an id that is not one). */
async function publishedMemory(
  deps: Pick<AppDeps, 'db'>,
  id: unknown,
): Promise<Memory | undefined> {
  const parsed = idSchema.safeParse(id);
  if (!parsed.success) return undefined;
  const found = await findMemory(deps.db, parsed.data);
  return found?.memory.status === 'published' ? found.memory : undefined;
}

/**
 * The link-preview tags of a memory's pages: `/memory?id=…` (the page as it is for a missing or
 * unknown id) and its share link `/m/:id` (a 404 page for a memory that is not published).
 */
export function memoryPageHead(deps: Pick<AppDeps, 'db' | 'config' | 'settings'>) {
  return {
    [CLIENT_PATHS.memory]: async (request: FastifyRequest): Promise<PageHead | undefined> => {
      const query = request.query as Record<string, unknown> | undefined;
      const memory = await publishedMemory(deps, query?.id);
      if (!memory) return undefined;
      const path = `${CLIENT_PATHS.memory}?id=${encodeURIComponent(memory._id)}`;
      return memoryHead(memory, deps.config, deps.settings.current.eventName, path);
    },
    [CLIENT_PATHS.memoryShare]: async (request: FastifyRequest): Promise<PageHead | null> => {
      // `/m/<id>`: an id is plain text, so the segment is taken as it is.
      const id = request.url.split('?', 1)[0]?.split('/')[2];
      const memory = await publishedMemory(deps, id);
      if (!memory) return null;
      return memoryHead(
        memory,
        deps.config,
        deps.settings.current.eventName,
        memorySharePath(memory._id),
      );
    },
  };
}
