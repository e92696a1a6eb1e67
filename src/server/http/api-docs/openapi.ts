import fs from 'node:fs';
import { STATUS_CODES } from 'node:http';
import swagger from '@fastify/swagger';
import type { FastifyInstance, FastifySchema } from 'fastify';
import {
  createJsonSchemaTransform,
  createJsonSchemaTransformObject,
} from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MAX_FILES_PER_POST } from '../../../shared/constants.ts';
import { errorResponseSchema } from '../../../shared/errors.ts';
import { API_PATHS } from '../../../shared/routes.ts';
import { memoryPostFieldsSchema, memorySchema } from '../../../shared/schemas/memory.ts';
import { questionSchema } from '../../../shared/schemas/question.ts';
import { speakerFieldsSchema, speakerSchema } from '../../../shared/schemas/speaker.ts';
import { answerNotModified, bodyTag } from '../transport/conditional-get.ts';
import { pageRateLimit } from '../transport/rate-limits.ts';
import { cacheHeaders } from '../transport/cache-headers.ts';

/** The security requirement of the admin routes: the Bearer token `POST /api/admin/login` gives. */
export const ADMIN_TOKEN = [{ adminToken: [] }] as const;
/** An attendee's token, from `POST /api/attendees`. */
export const ATTENDEE_TOKEN = [{ attendeeToken: [] }] as const;
/** A speaker's token, from `POST /api/speakers/login` with the secret. */
export const SPEAKER_TOKEN = [{ speakerToken: [] }] as const;

const TAGS = [
  { name: 'System', description: 'Health and the public configuration.' },
  { name: 'Memories', description: 'The gallery: posting photos and videos, reading them.' },
  { name: 'Media', description: 'The stored files: photos, videos, thumbnails, pictures.' },
  { name: 'Speakers', description: 'Speaker sign-up, login, the list and the dashboard.' },
  { name: 'Questions', description: 'Asking questions, and the lists of the Q&A screens.' },
  { name: 'Attendees', description: 'Joining: the attendee token votes and questions carry.' },
  {
    name: 'Uploads',
    description: 'Resumable uploads (tus 1.0): a finished upload becomes one memory.',
  },
  { name: 'Admin', description: 'Moderation, behind the admin token.' },
  {
    name: 'Programme',
    description: 'The schedule: rooms and sessions, read by anyone, written by the admin.',
  },
  {
    name: 'Polls',
    description: "Live polls: run by a session's speakers or the admin, answered by attendees.",
  },
  { name: 'Reactions', description: 'Emoji taps during a talk, summed and shown live.' },
  {
    name: 'Announcements',
    description:
      "The organiser's announcements, live and by Web Push to attendees' subscribed devices.",
  },
];

const DESCRIPTION = `The HTTP API of Confab, generated from the zod schemas its routes validate with.

Errors are always \`{ "error": "message", "code": "STABLE_CODE" }\`. Lists answer with an \`ETag\`
and \`304 Not Modified\` when polled with \`If-None-Match\`. Writes are rate-limited (429 with
\`Retry-After\`) and refused from other sites (403). Live updates come over socket.io
(\`/socket.io\`), which this document does not describe: see \`docs/api.md\`.`;

/** Shapes named once in `components.schemas` instead of repeated in every operation. */
const namedSchemas = z.registry<{ id: string }>();
namedSchemas.add(errorResponseSchema, { id: 'Error' });
namedSchemas.add(memorySchema, { id: 'Memory' });
namedSchemas.add(speakerSchema, { id: 'Speaker' });
namedSchemas.add(questionSchema, { id: 'Question' });
const jsonSchemaTransform = createJsonSchemaTransform({ schemaRegistry: namedSchemas });
const jsonSchemaTransformObject = createJsonSchemaTransformObject({
  schemaRegistry: namedSchemas,
});

/**
 * Routes that read a multipart form themselves (a body schema would make Fastify validate the
 * stream): the form as the document shows it, its text fields from the shared schemas.
 */
const MULTIPART_FORMS: Readonly<Record<string, z.ZodObject>> = {
  [API_PATHS.memoryCreate]: memoryPostFieldsSchema.extend({
    files: z
      .array(z.file())
      .min(1)
      .max(MAX_FILES_PER_POST)
      .describe('Photos and videos; the field may also be named `media`.'),
  }),
  [API_PATHS.speakerAdd]: speakerFieldsSchema.extend({
    picture: z.file().describe('The speaker’s photo.'),
  }),
};

const MEDIA_ROUTE = `${API_PATHS.mediaPrefix}/*`;
const mediaError = (description: string) => ({
  description,
  content: { 'application/json': { schema: errorResponseSchema } },
});
/** `/media/*` serves bytes and has no zod schema (it is on the gallery's path): described here. */
const MEDIA_DOCUMENTATION: { url: string; schema: FastifySchema } = {
  url: `${API_PATHS.mediaPrefix}/{key}`,
  schema: {
    tags: ['Media'],
    summary: 'A stored photo, video, thumbnail or picture',
    description:
      'The URLs memories and speakers name (`media`, `thumbnail`, `picture`, `avatar`). The bytes ' +
      'never change: cached for a year. One `Range` is answered 206. `?download` sends the file ' +
      'as an attachment (`memory.png`, `memory.mp4`).',
    params: z.object({ key: z.string().describe('The rest of the URL after `/media/`.') }),
    querystring: z.object({
      download: z.string().optional().describe('Present (any value): save rather than show.'),
    }),
    response: {
      200: {
        description: 'The file',
        content: { 'image/*': { schema: z.file() }, 'video/*': { schema: z.file() } },
      },
      206: {
        description: 'The requested range',
        content: { 'image/*': { schema: z.file() }, 'video/*': { schema: z.file() } },
      },
      404: mediaError('No such file'),
      416: mediaError('The range is outside the file'),
    },
  },
};

/** The API: `/api/*`, the stored media, and the spec's two paths outside `/api`. */
const isApiRoute = (url: string) =>
  url.startsWith('/api/') ||
  url.startsWith(`${API_PATHS.mediaPrefix}/`) ||
  url === API_PATHS.speakers ||
  url === API_PATHS.questionCreate;

type Document = ReturnType<typeof jsonSchemaTransformObject>;

/** The parts of an OpenAPI 3 document `finish` changes. */
interface Finishable {
  paths?: Record<string, Record<string, { responses?: Record<string, { description?: string }> }>>;
  components?: { schemas?: Record<string, unknown> };
}

/**
 * The finishing touches: each response without a description gets its status's name, and the
 * `…Input` copies of the named shapes that no request uses are left out.
 */
function finish(document: Document): Document {
  const { paths = {}, components } = document as Finishable;
  for (const operation of Object.values(paths).flatMap((path) => Object.values(path))) {
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      if (response.description !== 'Default Response') continue;
      response.description = /^\dXX$/.test(status)
        ? `${status.startsWith('4') ? 'Client' : 'Server'} error`
        : (STATUS_CODES[status] ?? status);
    }
  }
  const schemas = components?.schemas ?? {};
  const text = JSON.stringify(document);
  for (const name of Object.keys(schemas)) {
    if (!text.includes(`"#/components/schemas/${name}"`)) Reflect.deleteProperty(schemas, name);
  }
  return document;
}

/** The app's version, from package.json (one small read at start). */
function packageVersion(): string {
  try {
    const text = fs.readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8');
    return z.object({ version: z.string() }).parse(JSON.parse(text)).version;
  } catch {
    return '0.0.0';
  }
}

/**
 * Registers @fastify/swagger, which notes every route as it is added: call it before the routes.
 * The document itself is built on the first `GET /api/openapi.json`, from the routes' zod schemas
 * (fastify-type-provider-zod's transforms). Client pages, built files and the reference page are
 * left out.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Confab API', version: packageVersion(), description: DESCRIPTION },
      // The origin the document is read from.
      servers: [{ url: '/' }],
      tags: TAGS,
      components: {
        securitySchemes: {
          adminToken: {
            type: 'http',
            scheme: 'bearer',
            description: 'The token `POST /api/admin/login` answers; it expires (`expiresAt`).',
          },
          attendeeToken: {
            type: 'http',
            scheme: 'bearer',
            description: 'The token `POST /api/attendees` answers at join.',
          },
          speakerToken: {
            type: 'http',
            scheme: 'bearer',
            description:
              'The token `POST /api/speakers/login` answers when the secret is sent with the username.',
          },
        },
      },
    },
    transform: (document) => {
      const { url } = document;
      if (!isApiRoute(url)) return { schema: { hide: true }, url };
      if (url === MEDIA_ROUTE) {
        const { schema } = jsonSchemaTransform({ ...document, ...MEDIA_DOCUMENTATION });
        return { schema, url: MEDIA_DOCUMENTATION.url };
      }
      const form = MULTIPART_FORMS[url];
      if (!form) return jsonSchemaTransform(document);
      return jsonSchemaTransform({
        ...document,
        schema: { ...document.schema, body: form, consumes: ['multipart/form-data'] },
      });
    },
    transformObject: (document) => finish(jsonSchemaTransformObject(document)),
  });
}

/** `GET /api/openapi.json`: the document, built on the first request, then kept. */
export async function openApiRoutes(
  app: FastifyInstance,
  options: { pageRateLimit: number },
): Promise<void> {
  let built: { json: string; etag: string } | undefined;
  app.get(
    API_PATHS.openApi,
    { preHandler: pageRateLimit(app, options.pageRateLimit), schema: { hide: true } },
    async (request, reply) => {
      if (!built) {
        const json = JSON.stringify(app.swagger());
        built = { json, etag: bodyTag(json) };
      }
      cacheHeaders.revalidate(reply);
      if (answerNotModified(request, reply, built.etag)) return reply;
      return reply.type('application/json; charset=utf-8').send(built.json);
    },
  );
}
