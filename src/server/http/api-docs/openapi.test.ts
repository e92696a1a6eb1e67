import fs from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { PLAIN_PAGE, useTestApp } from '../../../../tests/support/test-app.ts';

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  required?: string[];
  format?: string;
  $ref?: string;
}
interface Operation {
  summary?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { in: string; name: string; required?: boolean }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { description?: string; content?: Record<string, { schema: Schema }> }>;
}
interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  tags: { name: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, Schema>;
    securitySchemes: Record<string, { type: string; scheme?: string }>;
  };
}

/**
 * The app's route table, from `printRoutes()`: each line of the radix tree holds a piece of the
 * path, so a route's path is its ancestors' pieces joined.
 */
function routeTable(tree: string): { method: string; url: string }[] {
  const pieces: string[] = [];
  const routes: { method: string; url: string }[] = [];
  for (const line of tree.split('\n')) {
    const match = /^((?:[│ ] {3})*)[├└]── (.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const [, indent = '', piece = '', methods] = match;
    pieces.length = indent.length / 4;
    pieces.push(piece);
    for (const method of methods?.split(', ') ?? []) routes.push({ method, url: pieces.join('') });
  }
  return routes;
}

/** The API as the spec and docs/api.md define it; everything else is pages, files or tooling. */
const isApiRoute = (url: string) =>
  (url.startsWith('/api/') ||
    url.startsWith('/media/') ||
    ['/speakers', '/questions'].includes(url)) &&
  url !== '/api/openapi.json' &&
  !url.startsWith('/api/docs');

/** Fastify's `/a/:id` and `/media/*` as OpenAPI writes them. */
const openApiPath = (url: string) =>
  url === '/media/*' ? '/media/{key}' : url.replace(/:(\w+)/g, '{$1}');

/**
 * A path with its parameters unnamed: routes that share a parametric segment under different
 * names (`/api/speakers/:username/dashboard`, `/api/speakers/:id`) print as `:username|:id`.
 */
const shapeOf = (url: string) => url.replace(/\{\w+\}(\|\{\w+\})*/g, '{}');

/** Every text the document holds under `keyword` (`$ref`, `pattern`), at any depth. */
function keywordIn(value: unknown, keyword: string): string[] {
  if (Array.isArray(value)) return value.flatMap((inner) => keywordIn(inner, keyword));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    key === keyword && typeof inner === 'string' ? [inner] : keywordIn(inner, keyword),
  );
}

describe('the OpenAPI document', () => {
  // A built client, so the app has page and file routes the document must leave out.
  const t = useTestApp({
    client: {
      'index.html': PLAIN_PAGE,
      'assets/main-abc123.js': 'console.log(1)',
      'logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
    },
  });
  let document: OpenApiDocument;
  let response: Response;

  beforeAll(async () => {
    response = await fetch(`${t.url}/api/openapi.json`);
    document = (await response.json()) as OpenApiDocument;
  });

  it('is served as JSON with the headers and limits of every route, and revalidated', async () => {
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('content-security-policy')).toMatch(/script-src 'self'(;|$)/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-ratelimit-limit')).toBe('300');
    const etag = response.headers.get('etag') ?? '';
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await fetch(`${t.url}/api/openapi.json`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    // Built once: the same bytes every time.
    const third = await fetch(`${t.url}/api/openapi.json`);
    expect(await third.json()).toEqual(document);
  });

  it('is OpenAPI 3 with the title, version, description and admin token scheme', async () => {
    expect(document.openapi).toMatch(/^3\./);
    const { version } = JSON.parse(await fs.readFile('package.json', 'utf8')) as {
      version: string;
    };
    expect(document.info).toMatchObject({ title: 'Confab API', version });
    expect(document.info.description).toMatch(/zod schemas/);
    expect(document.components.securitySchemes.adminToken).toEqual(
      expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    );
  });

  it('has every API route of the app, and nothing else', () => {
    const routes = routeTable(t.app.printRoutes()).filter(({ method }) => method !== 'HEAD');
    const api = routes.filter(({ url }) => isApiRoute(url));
    // The table was read: the spec's routes are all there.
    expect(api.length).toBeGreaterThanOrEqual(18);
    expect(routes.map(({ url }) => url)).toEqual(
      expect.arrayContaining(['/api/docs', '/api/openapi.json', '/assets/main-abc123.js']),
    );
    const documented = Object.entries(document.paths).flatMap(([url, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${shapeOf(url)}`),
    );
    for (const { method, url } of api) {
      expect(documented, `${method} ${url}`).toContain(`${method} ${shapeOf(openApiPath(url))}`);
    }
    expect(documented.sort()).toEqual(
      api.map(({ method, url }) => `${method} ${shapeOf(openApiPath(url))}`).sort(),
    );
  });

  it('is well formed: parameters, responses, tags and references all resolve', () => {
    const tags = new Set(document.tags.map(({ name }) => name));
    for (const [url, operations] of Object.entries(document.paths)) {
      const pathParams = [...url.matchAll(/\{(\w+)\}/g)].map(([, name]) => name);
      for (const [method, operation] of Object.entries(operations)) {
        const what = `${method} ${url}`;
        expect(operation.summary, what).toBeTruthy();
        expect(operation.tags?.length, what).toBe(1);
        for (const tag of operation.tags ?? []) expect(tags.has(tag), `${what}: ${tag}`).toBe(true);
        const declared = (operation.parameters ?? []).filter((p) => p.in === 'path');
        expect(declared.map((p) => p.name).sort(), what).toEqual(pathParams.sort());
        for (const parameter of declared) expect(parameter.required, what).toBe(true);
        expect(Object.keys(operation.responses).length, what).toBeGreaterThan(0);
        for (const [status, answer] of Object.entries(operation.responses)) {
          expect(status, what).toMatch(/^([1-5]\d\d|[1-5]XX|default)$/);
          expect(answer.description, `${what} ${status}`).toBeTruthy();
        }
      }
    }
    const refs = keywordIn(document, '$ref');
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      expect(ref).toMatch(/^#\/components\/schemas\//);
      expect(document.components.schemas[ref.split('/').at(-1) ?? ''], ref).toBeDefined();
    }
    // Every named shape is used.
    for (const name of Object.keys(document.components.schemas)) {
      expect(refs, name).toContain(`#/components/schemas/${name}`);
    }
    // Every pattern is one a JSON Schema validator can use: ECMA-262 with the `u` flag, which
    // has no properties of strings (the reactions' emoji check is not one, and is not here).
    const patterns = keywordIn(document, 'pattern');
    expect(patterns.length).toBeGreaterThan(0);
    for (const pattern of patterns) expect(() => new RegExp(pattern, 'u'), pattern).not.toThrow();
  });

  it('describes the known request and response shapes', () => {
    const { schemas } = document.components;
    const ask = document.paths['/questions']?.post;
    const askBody = ask?.requestBody?.content['application/json']?.schema;
    expect(Object.keys(askBody?.properties ?? {})).toEqual(
      expect.arrayContaining(['question', 'speakerId', 'sessionId', 'askerUsername']),
    );
    // A session's question may leave the speaker out (decision 223).
    expect(askBody?.required).toEqual(expect.arrayContaining(['question', 'askerUsername']));
    expect(ask?.responses['201']?.content?.['application/json']?.schema.$ref).toBe(
      '#/components/schemas/Question',
    );
    expect(Object.keys(schemas.Question?.properties ?? {})).toEqual(
      expect.arrayContaining(['_id', 'speakerId', 'question', 'askerUsername', 'createdAt']),
    );

    const gallery = document.paths['/api/memory']?.get;
    expect(gallery?.parameters?.map(({ name }) => name).sort()).toEqual(['before', 'limit']);
    expect(gallery?.responses['200']?.content?.['application/json']?.schema).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/Memory' },
    });
    expect(gallery?.responses['304']).toBeDefined();

    // The uploads are multipart forms, with their files as binary parts.
    const post = document.paths['/api/memories']?.post;
    const form = post?.requestBody?.content['multipart/form-data']?.schema;
    expect(form?.required).toEqual(expect.arrayContaining(['caption', 'username', 'files']));
    expect(form?.properties?.files?.items?.format).toBe('binary');
    const signUp = document.paths['/api/speakersadd']?.post;
    const signUpForm = signUp?.requestBody?.content['multipart/form-data']?.schema;
    expect(Object.keys(signUpForm?.properties ?? {}).sort()).toEqual([
      'bio',
      'name',
      'picture',
      'stack',
    ]);

    // Errors have the one shape.
    expect(post?.responses['413']?.content?.['application/json']?.schema.$ref).toBe(
      '#/components/schemas/Error',
    );
    expect(schemas.Error?.required).toEqual(['error']);
  });

  it('asks for a token exactly where the app does', async () => {
    for (const [url, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        // A token is required unless one of the alternatives is none (`{}`: optional).
        const secured =
          (operation.security?.length ?? 0) > 0 &&
          !(operation.security ?? []).some((scheme) => Object.keys(scheme).length === 0);
        const answer = await fetch(`${t.url}${url.replace(/\{\w+\}/g, 'x')}`, {
          method: method.toUpperCase(),
        });
        await answer.arrayBuffer();
        // The secured routes answer 401 before looking at anything else.
        expect(answer.status === 401, `${method} ${url}: ${answer.status}`).toBe(secured);
      }
    }
    expect(document.paths['/api/admin/login']?.post?.security).toBeUndefined();
    expect(document.paths['/api/media']?.get?.security).toEqual([{ adminToken: [] }]);
  });
});
