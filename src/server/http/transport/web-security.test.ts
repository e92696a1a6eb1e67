import { Readable } from 'node:stream';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { memoryPostResponseSchema } from '../../../shared/schemas/memory.ts';
import { PLAIN_PAGE, testDatabases, useTestApp } from '../../../../tests/support/test-app.ts';
import { rawExchange } from '../../../../tests/support/raw-http.ts';

const png = (background = '#e8590c') =>
  sharp({ create: { width: 32, height: 24, channels: 3, background } })
    .png()
    .toBuffer();

function memoryForm(file: Buffer, name = 'photo.png', type = 'image/png'): FormData {
  const body = new FormData();
  body.append('caption', 'Headers');
  body.append('username', 'ada');
  body.append('files', new Blob([new Uint8Array(file)], { type }), name);
  return body;
}

/** Every answer carries these, whatever produced it. */
function expectSecurityHeaders(response: Response, what: string): void {
  const csp = response.headers.get('content-security-policy') ?? '';
  expect(csp, `${what}: CSP`).toMatch(/frame-ancestors 'none'/);
  expect(csp, `${what}: CSP`).not.toMatch(/script-src[^;]*unsafe-inline/);
  expect(response.headers.get('x-content-type-options'), `${what}: nosniff`).toBe('nosniff');
  expect(response.headers.get('referrer-policy'), `${what}: referrer`).toBe(
    'strict-origin-when-cross-origin',
  );
}

describe.each(testDatabases)('web security (%s)', (database) => {
  let mediaPath: string;

  const t = useTestApp({
    database,
    client: { 'index.html': PLAIN_PAGE, 'assets/main-abc123.js': 'console.log(1)' },
    env: { CORS_ORIGINS: 'https://friend.example, https://other.example:8443' },
  });
  beforeAll(async () => {
    const response = await fetch(`${t.url}/api/memories`, {
      method: 'POST',
      body: memoryForm(await png()),
    });
    expect(response.status).toBe(201);
    const [memory] = memoryPostResponseSchema.parse(await response.json()).memories;
    mediaPath = memory?.media ?? '';
  });

  it('puts the CSP, nosniff, frame-ancestors and referrer headers on every kind of answer', async () => {
    const html = { accept: 'text/html' };
    const requests: [string, string, RequestInit?][] = [
      ['API JSON', '/api/health'],
      ['API list', '/api/memory'],
      ['validation error', '/api/memory/not-an-id'],
      ['unknown API path', '/api/nothing-here'],
      ['malformed URL', '/api/memory/%zz'],
      [
        'invalid JSON',
        '/questions',
        { method: 'POST', body: '{', headers: { 'content-type': 'application/json' } },
      ],
      [
        'unsupported type',
        '/questions',
        { method: 'POST', body: 'x', headers: { 'content-type': 'text/xml' } },
      ],
      ['media', mediaPath],
      ['media range', mediaPath, { headers: { range: 'bytes=0-9' } }],
      ['media bad range', mediaPath, { headers: { range: 'bytes=999999-' } }],
      ['missing media', '/media/memories/nothing.png'],
      ['index.html', '/', { headers: html }],
      ['client route', '/home', { headers: html }],
      ['unknown page', '/no-such-page', { headers: html }],
      ['asset', '/assets/main-abc123.js'],
      ['missing asset', '/assets/missing.js'],
      ['API document', '/api/openapi.json'],
      ['API reference page', '/api/docs'],
      ['API reference script', '/api/docs/scalar.js'],
      ['socket.io handshake', '/socket.io/?EIO=4&transport=polling'],
      ['socket.io bad request', '/socket.io/?EIO=9&transport=nope'],
      [
        'socket.io from a null origin',
        '/socket.io/?EIO=4&transport=polling',
        { headers: { origin: 'null' } },
      ],
      [
        'cross-origin refusal',
        '/questions',
        { method: 'POST', headers: { origin: 'https://evil.example' } },
      ],
    ];
    for (const [what, url, init] of requests) {
      const response = await fetch(`${t.url}${url}`, init);
      await response.arrayBuffer();
      expect(response.status, what).toBeLessThan(500);
      expectSecurityHeaders(response, what);
    }
  });

  it('sends a 304 with its validators and caching headers only: the client keeps the rest', async () => {
    const list = await fetch(`${t.url}/api/memory`);
    await list.arrayBuffer();
    expectSecurityHeaders(list, '200');
    const etag = list.headers.get('etag') ?? '';
    const poll = await fetch(`${t.url}/api/memory`, { headers: { 'if-none-match': etag } });
    expect(poll.status).toBe(304);
    expect(poll.headers.get('etag')).toBe(etag);
    expect(poll.headers.get('cache-control')).toBe(list.headers.get('cache-control'));
    expect(poll.headers.get('vary')).toBe(list.headers.get('vary'));
    for (const name of [
      'content-security-policy',
      'x-frame-options',
      'strict-transport-security',
    ]) {
      expect(poll.headers.get(name), name).toBeNull();
    }
  });

  it('answers a request the HTTP parser refuses with JSON and the security headers', async () => {
    const { port } = new URL(t.url);
    for (const request of [
      'GARBAGE\r\n\r\n',
      'GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n',
      `GET / HTTP/1.1\r\nHost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`,
    ]) {
      const raw = await rawExchange(Number(port), request);
      const [head = '', body = ''] = raw.split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 4\d\d /);
      expect(head).toMatch(/content-security-policy: default-src 'none'; frame-ancestors 'none'/i);
      expect(head).toMatch(/x-content-type-options: nosniff/i);
      expect(head).toMatch(/referrer-policy: strict-origin-when-cross-origin/i);
      const answer = JSON.parse(body) as { error?: unknown; code?: unknown };
      expect(typeof answer.error).toBe('string');
      expect(answer.code).toBe('BAD_REQUEST');
    }
  });

  it('refuses writes from other sites with a 403 JSON answer, before reading them', async () => {
    for (const [method, url] of [
      ['POST', '/api/memories'],
      ['POST', '/questions'],
      ['POST', '/api/speakersadd'],
      ['POST', '/api/speakers/login'],
      ['POST', '/api/admin/login'],
      ['DELETE', '/api/media/0190f7d2-0000-7000-8000-000000000000'],
    ] as const) {
      for (const origin of ['https://evil.example', 'null', `http://127.0.0.1.evil.example`]) {
        const response = await fetch(`${t.url}${url}`, {
          method,
          headers: { origin, 'content-type': 'application/json' },
          body: method === 'POST' ? '{}' : undefined,
        });
        expect(response.status, `${method} ${url} from ${origin}`).toBe(403);
        expect(response.headers.get('content-type')).toMatch(/application\/json/);
        expect(await response.json()).toMatchObject({
          error: 'Cross-origin requests are not allowed',
          code: 'FORBIDDEN',
        });
        expect(response.headers.get('access-control-allow-origin')).toBeNull();
      }
    }
    // Nothing was written.
    const questions = await fetch(`${t.url}/api/questions/realtime`);
    expect(await questions.json()).toEqual([]);
  });

  it('a refused cross-origin upload leaves no file', async () => {
    const before = await t.storedMediaKeys('memories/');
    const response = await fetch(`${t.url}/api/memories`, {
      method: 'POST',
      headers: { origin: 'https://evil.example' },
      body: memoryForm(await png('#123456')),
    });
    expect(response.status).toBe(403);
    expect(await t.storedMediaKeys('memories/')).toEqual(before);
  });

  it('lets the same site write, and reads from anywhere stay open (without CORS headers)', async () => {
    const same = await fetch(`${t.url}/api/speakers/login`, {
      method: 'POST',
      headers: { origin: t.url, 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'nobody' }),
    });
    expect(same.status).not.toBe(403);
    expect(same.status).toBeLessThan(500);
    const read = await fetch(`${t.url}/api/memory`, {
      headers: { origin: 'https://evil.example' },
    });
    expect(read.status).toBe(200);
    expect(read.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers allow-listed origins with CORS headers and a preflight', async () => {
    const preflight = await fetch(`${t.url}/questions`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://friend.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://friend.example');
    expect(preflight.headers.get('access-control-allow-methods')).toMatch(/POST/);
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/content-type/);

    const write = await fetch(`${t.url}/questions`, {
      method: 'POST',
      headers: { origin: 'https://other.example:8443', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(write.status).toBe(400);
    expect(write.headers.get('access-control-allow-origin')).toBe('https://other.example:8443');

    const evilPreflight = await fetch(`${t.url}/questions`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(evilPreflight.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('never serves an upload as HTML or script', async () => {
    const hostile = [
      ['page.html', '<!doctype html><script>alert(1)</script>', 'text/html'],
      [
        'image.svg',
        '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
        'image/svg+xml',
      ],
      ['app.js', 'alert(1)', 'application/javascript'],
      ['fake.png', '<html><body onload="alert(1)"></body></html>', 'image/png'],
    ] as const;
    for (const [name, text, type] of hostile) {
      const response = await fetch(`${t.url}/api/memories`, {
        method: 'POST',
        body: memoryForm(Buffer.from(text), name, type),
      });
      expect(response.status, name).toBe(415);
    }
    // A PNG with HTML after its end is re-encoded: the served bytes carry no markup.
    const polyglot = Buffer.concat([
      await png('#0b7285'),
      Buffer.from('<script>alert(1)</script>'),
    ]);
    const posted = await fetch(`${t.url}/api/memories`, {
      method: 'POST',
      body: memoryForm(polyglot, 'polyglot.png'),
    });
    expect(posted.status).toBe(201);
    const [memory] = memoryPostResponseSchema.parse(await posted.json()).memories;
    const served = await fetch(`${t.url}${memory?.media ?? ''}`);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('content-security-policy')).toMatch(/sandbox/);
    expect(Buffer.from(await served.arrayBuffer()).includes('<script>')).toBe(false);

    // Even a file that got into the store by other means is only served with a media type.
    await t.app.deps.media.put(
      'memories/planted.html',
      Readable.from(['<script>x</script>']),
      'text/html',
    );
    await t.app.deps.media.put('memories/planted.svg', Readable.from(['<svg/>']), 'image/svg+xml');
    for (const key of ['memories/planted.html', 'memories/planted.svg']) {
      const response = await fetch(`${t.url}/media/${key}`);
      expect(response.status, key).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/application\/json/);
    }
  });
});
