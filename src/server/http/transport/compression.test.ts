import zlib from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedMemories } from '../../../../tests/support/seed-memories.ts';
import { type RawAnswer, rawGet } from '../../../../tests/support/raw-http.ts';
import { useTestApp } from '../../../../tests/support/test-app.ts';
import { AnswerMemo } from './answer-memo.ts';

const decode = (answer: RawAnswer): Buffer => {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'br') return zlib.brotliDecompressSync(answer.body);
  if (encoding === 'gzip') return zlib.gunzipSync(answer.body);
  return answer.body;
};

const varies = (answer: RawAnswer) =>
  (answer.headers.vary ?? '').toLowerCase().includes('accept-encoding');

/**
 * A 304 stands for the answer the client holds and keeps its headers (RFC 9111 §3.2): it says
 * nothing of the page's policies, which stay as the 200 set them.
 */
function expectHeldHeaders(answer: RawAnswer, what: string): void {
  expect(answer.headers['content-security-policy'], what).toBeUndefined();
  expect(answer.headers['x-content-type-options'], what).toBeUndefined();
}

function expectSecurityHeaders(answer: RawAnswer, what: string): void {
  expect(answer.headers['content-security-policy'], what).toMatch(/frame-ancestors 'none'/);
  expect(answer.headers['x-content-type-options'], what).toBe('nosniff');
}

/** A built client: the page, a hashed script with its compressed siblings, a public file. */
const script = Buffer.from(
  Array.from({ length: 400 }, (_, i) => `export const value${i} = ${i};`).join('\n'),
);

/** A built client as Vite leaves it: the page, a script with its precompressed copies, a logo. */
const CLIENT = {
  'index.html': `<!doctype html><html><head><meta charset="UTF-8" /><meta name="application-name" content="Confab" /><title>app</title></head><body><div id="root"></div>${'<!-- padding -->'.repeat(80)}</body></html>`,
  'assets/main-abc123.js': script,
  'assets/main-abc123.js.br': zlib.brotliCompressSync(script),
  'assets/main-abc123.js.gz': zlib.gzipSync(script),
  'logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
};

describe('acceptedEncoding', () => {
  const answers = new AnswerMemo();

  it('prefers brotli, then gzip, and respects q=0', () => {
    expect(answers.acceptedEncoding('gzip, deflate, br')).toBe('br');
    expect(answers.acceptedEncoding('gzip, br;q=0')).toBe('gzip');
    expect(answers.acceptedEncoding('*')).toBe('br');
    expect(answers.acceptedEncoding('identity')).toBeUndefined();
    expect(answers.acceptedEncoding(undefined)).toBeUndefined();
  });

  it('reads the same header the same way every time, past the headers it keeps', () => {
    const headers = Array.from({ length: 200 }, (_, i) => `gzip;q=${i % 2}, x-${i}`);
    for (let pass = 0; pass < 2; pass++) {
      for (const [i, header] of headers.entries()) {
        expect(answers.acceptedEncoding(header)).toBe(i % 2 ? 'gzip' : undefined);
      }
      expect(answers.acceptedEncoding('gzip, br;q=0')).toBe('gzip');
      expect(answers.acceptedEncoding('br;q=0, gzip;q=0')).toBeUndefined();
    }
  });
});

describe('compressed answers and HTTP caching', () => {
  let videoPath: string;

  const t = useTestApp({ client: CLIENT, env: { EVENT_NAME: 'DevFest <Berlin> & "friends"' } });
  beforeAll(async () => {
    const seeded = await seedMemories(
      t.app.deps,
      Array.from({ length: 40 }, (_, i) => ({
        username: `attendee-${i}`,
        text: `Memory ${i}: the keynote, the hallway track and the coffee queue.`,
        kind: 'video' as const,
      })),
    );
    videoPath = seeded[0]?.media ?? '';
  });

  it('compresses a large JSON answer with brotli or gzip, as asked, and says it varies', async () => {
    const plain = await rawGet(`${t.url}/api/memory`);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(4096);
    expect(varies(plain)).toBe(true);
    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      const answer = await rawGet(`${t.url}/api/memory`, { 'accept-encoding': accept });
      expect(answer.status, accept).toBe(200);
      expect(answer.headers['content-encoding'], accept).toBe(encoding);
      expect(answer.body.length, accept).toBeLessThan(plain.body.length / 3);
      expect(JSON.parse(decode(answer).toString())).toEqual(JSON.parse(plain.body.toString()));
      expect(varies(answer), accept).toBe(true);
      // One version in several encodings: the same (weak) validator.
      expect(answer.headers.etag, accept).toBe(plain.headers.etag);
      expectSecurityHeaders(answer, accept);
    }
  });

  it('still answers a matching poll with an empty 304 that varies on the encoding', async () => {
    const first = await rawGet(`${t.url}/api/memory`, { 'accept-encoding': 'br' });
    const etag = String(first.headers.etag);
    for (const url of ['/api/memory', '/api/memory?limit=60']) {
      const answer = await rawGet(`${t.url}${url}`, {
        'accept-encoding': 'br, gzip',
        'if-none-match': etag,
      });
      expect(answer.status, url).toBe(304);
      expect(answer.body.length, url).toBe(0);
      expect(answer.headers['content-encoding'], url).toBeUndefined();
      expect(answer.headers.etag, url).toBe(etag);
      expect(varies(answer), url).toBe(true);
      expectHeldHeaders(answer, url);
    }
  });

  it('leaves small answers as they are, still saying they vary', async () => {
    const answer = await rawGet(`${t.url}/api/health`, { 'accept-encoding': 'br' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(varies(answer)).toBe(true);
  });

  it('sends a script precompressed by the build, cached for a year', async () => {
    for (const [accept, encoding, file] of [
      ['br, gzip', 'br', 'main-abc123.js.br'],
      ['gzip', 'gzip', 'main-abc123.js.gz'],
    ] as const) {
      const answer = await rawGet(`${t.url}/assets/main-abc123.js`, { 'accept-encoding': accept });
      expect(answer.status, accept).toBe(200);
      expect(answer.headers['content-encoding'], accept).toBe(encoding);
      expect(answer.headers['content-type'], accept).toMatch(/javascript/);
      expect(answer.body.equals(CLIENT[`assets/${file}`])).toBe(true);
      expect(decode(answer).equals(script)).toBe(true);
      expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(varies(answer), accept).toBe(true);
      expectSecurityHeaders(answer, accept);
    }
    const plain = await rawGet(`${t.url}/assets/main-abc123.js`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.equals(script)).toBe(true);
    // The compressed siblings are not files of their own.
    expect((await rawGet(`${t.url}/assets/main-abc123.js.br`)).status).toBe(404);
  });

  it('never compresses media, whole or in ranges', async () => {
    const whole = await rawGet(`${t.url}${videoPath}`, { 'accept-encoding': 'br, gzip' });
    expect(whole.status).toBe(200);
    expect(whole.headers['content-type']).toBe('video/mp4');
    expect(whole.headers['content-encoding']).toBeUndefined();
    const range = await rawGet(`${t.url}${videoPath}`, {
      'accept-encoding': 'br, gzip',
      range: 'bytes=0-99',
    });
    expect(range.status).toBe(206);
    expect(range.headers['content-encoding']).toBeUndefined();
    expect(range.body.equals(whole.body.subarray(0, 100))).toBe(true);
    expectSecurityHeaders(range, 'media range');
  });

  it('serves the page with the event name, compressed, revalidated with its ETag', async () => {
    const page = await rawGet(`${t.url}/home`, { accept: 'text/html', 'accept-encoding': 'br' });
    expect(page.status).toBe(200);
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(varies(page)).toBe(true);
    const html = decode(page).toString();
    expect(html).toContain(
      '<meta name="application-name" content="DevFest &lt;Berlin&gt; &amp; &quot;friends&quot;" />',
    );
    expect(html.match(/application-name/g)).toHaveLength(1);
    expectSecurityHeaders(page, 'page');

    const etag = String(page.headers.etag);
    expect(etag).toMatch(/^W\/"/);
    const again = await rawGet(`${t.url}/home`, {
      accept: 'text/html',
      'if-none-match': etag,
    });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(varies(again)).toBe(true);
    expectHeldHeaders(again, 'page 304');

    const gzip = await rawGet(`${t.url}/home`, { accept: 'text/html', 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(decode(gzip).toString()).toBe(html);
  });

  it('keeps the files of public/ an hour, then revalidates them', async () => {
    const logo = await rawGet(`${t.url}/logo.svg`);
    expect(logo.status).toBe(200);
    expect(logo.headers['cache-control']).toBe('public, max-age=3600, must-revalidate');
    const etag = String(logo.headers.etag);
    expect(etag).not.toBe('undefined');
    const again = await rawGet(`${t.url}/logo.svg`, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expectHeldHeaders(again, 'public file 304');
  });

  it("preloads the newest memory's thumbnail from /home, none for a video or on the join page", async () => {
    const preloads = async (page: string) =>
      (await (await fetch(`${t.url}${page}`, { headers: { accept: 'text/html' } })).text()).match(
        /<link rel="preload" as="image"[^>]*>/g,
      ) ?? [];
    // The newest memory is a video: nothing to preload.
    expect(await preloads('/home')).toEqual([]);
    const [photo] = await seedMemories(t.app.deps, [{ username: 'ada', text: 'A photo' }]);
    expect(photo?.thumbnail).toMatch(/^\/media\//);
    expect(await preloads('/home')).toEqual([
      `<link rel="preload" as="image" fetchpriority="high" href="${photo?.thumbnail}" />`,
    ]);
    expect(await preloads('/memories')).toHaveLength(1);
    expect(await preloads('/')).toEqual([]);
  });
});
