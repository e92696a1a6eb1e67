import Fastify, { type FastifyInstance } from 'fastify';
import { API_PATHS } from '../../../shared/routes.ts';
import type { AnswerMemo } from '../transport/answer-memo.ts';
import {
  type Encoding,
  compressTextAsync,
  varyOnAcceptEncoding,
} from '../transport/compression.ts';
import { bodyTag, matchesIfNoneMatch } from '../transport/conditional-get.ts';
import { escapeHtml } from '../pages/html.ts';
import { pageRateLimit } from '../transport/rate-limits.ts';
import { cacheHeaders } from '../transport/cache-headers.ts';

const SCRIPT_PATH = `${API_PATHS.apiDocs}/scalar.js`;

/**
 * Scalar's settings. Everything it shows comes from this server: the document, its script, no
 * web fonts (its default ones come from fonts.scalar.com), no telemetry, no hosted extras.
 */
const REFERENCE_CONFIGURATION = {
  url: API_PATHS.openApi,
  withDefaultFonts: false,
  telemetry: false,
  showDeveloperTools: 'never',
  agent: { disabled: true },
  documentDownloadType: 'json',
  // Its sidebar button opens Scalar's hosted client with this document's URL; the in-page
  // "Test Request" client stays.
  hideClientButton: true,
  metaData: { title: 'Confab API' },
};

/**
 * The page: Scalar's standalone script mounts the reference beside the `#api-reference` element
 * and reads its settings from the element's `data-configuration` (Scalar's HTML API). No inline
 * script, so the app's CSP (`script-src 'self'`) holds here too.
 */
const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Confab API</title>
    <link rel="icon" type="image/svg+xml" href="/logo.svg" />
  </head>
  <body>
    <noscript>The reference needs JavaScript; the document itself is at
      <a href="${API_PATHS.openApi}">${API_PATHS.openApi}</a>.</noscript>
    <script id="api-reference" type="application/json" data-configuration="${escapeHtml(
      JSON.stringify(REFERENCE_CONFIGURATION),
    )}"></script>
    <script src="${SCRIPT_PATH}"></script>
  </body>
</html>
`;

interface ReferenceScript {
  body: Buffer;
  etag: string;
  encoded: (encoding: Encoding) => Promise<Buffer>;
}

/**
 * Scalar's browser bundle (about 5 MB), as @scalar/fastify-api-reference serves it. The package
 * costs a few hundred milliseconds and 20 MB of heap to load, for a page few people open: it is
 * loaded on the first request, into an instance of its own that is asked for the script once and
 * closed, so the app's start and memory pay nothing until then.
 */
async function loadReferenceScript(): Promise<ReferenceScript> {
  const { default: apiReference } = await import('@scalar/fastify-api-reference');
  const scratch = Fastify({ logger: false });
  let script: string;
  try {
    await scratch.register(apiReference, {
      routePrefix: '/reference',
      configuration: { url: API_PATHS.openApi },
    });
    const answer = await scratch.inject({ method: 'GET', url: '/reference/js/scalar.js' });
    if (answer.statusCode !== 200) {
      throw new Error(`The reference script could not be read (${answer.statusCode})`);
    }
    script = answer.body;
  } finally {
    await scratch.close();
  }
  const body = Buffer.from(script);
  const encodings = new Map<Encoding, Promise<Buffer>>();
  return {
    body,
    etag: bodyTag(body),
    // Compressed once per encoding, off the event loop, then kept.
    encoded: (encoding) => {
      let encoded = encodings.get(encoding);
      if (!encoded) {
        encoded = compressTextAsync(body, encoding);
        encodings.set(encoding, encoded);
        encoded.catch(() => encodings.delete(encoding));
      }
      return encoded;
    },
  };
}

/**
 * `GET /api/docs`: a readable reference of the API (Scalar), rendered in the browser from
 * `/api/openapi.json`; `GET /api/docs/scalar.js`: its script, served by the app itself.
 */
export async function apiDocsRoutes(
  app: FastifyInstance,
  options: { pageRateLimit: number; answers: AnswerMemo },
): Promise<void> {
  const limit = pageRateLimit(app, options.pageRateLimit);
  let script: Promise<ReferenceScript> | undefined;

  app.get(API_PATHS.apiDocs, { preHandler: limit, schema: { hide: true } }, async (_, reply) =>
    cacheHeaders.hour(reply.type('text/html; charset=utf-8')).send(PAGE),
  );

  app.get(
    SCRIPT_PATH,
    // Compressed here once, not by the global compression on every answer.
    { preHandler: limit, schema: { hide: true }, compress: false },
    async (request, reply) => {
      script ??= loadReferenceScript().catch((error: unknown) => {
        script = undefined;
        throw error;
      });
      const { body, etag, encoded } = await script;
      cacheHeaders.hour(reply.type('application/javascript; charset=utf-8')).header('etag', etag);
      varyOnAcceptEncoding(reply);
      if (matchesIfNoneMatch(request, etag)) return reply.code(304).send();
      const encoding = options.answers.acceptedEncoding(request.headers['accept-encoding']);
      if (!encoding) return reply.send(body);
      return reply.header('content-encoding', encoding).send(await encoded(encoding));
    },
  );
}
