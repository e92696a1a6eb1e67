import { describe, expect, it } from 'vitest';
import { healthResponseSchema, publicConfigSchema } from '../../shared/schemas/config.ts';
import { startTestApp, testDatabases, useTestApp } from '../../../tests/support/test-app.ts';

describe.each(testDatabases)('system routes on %s', (database) => {
  const t = useTestApp({
    database,
    client: {
      'index.html':
        '<!doctype html><html><head><meta name="application-name" content="Confab" /><title>app</title></head><body><div id="root"></div></body></html>',
      'assets/main-abc123.js': 'console.log(1)',
    },
    env: { EVENT_NAME: 'Dev<Fest> & "Co"', MAX_UPLOAD_MB: '20' },
  });

  it('GET /api/health checks the database', async () => {
    const response = await fetch(`${t.url}/api/health`);
    expect(response.status).toBe(200);
    expect(healthResponseSchema.parse(await response.json()).status).toBe('ok');
  });

  it('GET /api/health answers 503 JSON when the database is gone', async () => {
    const other = await startTestApp({ database });
    await other.app.deps.database.close();
    const response = await fetch(`${other.url}/api/health`);
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({
      error: 'Database unavailable',
      code: 'SERVICE_UNAVAILABLE',
    });
    other.app.deps.database.close = () => Promise.resolve();
    await other.close();
  });

  it('GET /api/config gives the client the event name, limit, types and intervals', async () => {
    const response = await fetch(`${t.url}/api/config`);
    const config = publicConfigSchema.parse(await response.json());
    expect(config.eventName).toBe('Dev<Fest> & "Co"');
    expect(config.maxUploadMb).toBe(20);
    expect(config.maxUploadBytes).toBe(20 * 1024 * 1024);
    expect(config.acceptedTypes.images).toContain('image/jpeg');
    expect(config.acceptedTypes.videos).toContain('video/mp4');
    expect(config.pollIntervals).toEqual({
      gallery: 3000,
      adminList: 2000,
      speakerDropdown: 3000,
      speakers: 5000,
      questions: 5000,
      dashboard: 5000,
    });
  });

  it.each([
    ['GET', '/api/nope'],
    ['POST', '/api/nope'],
    ['GET', '/api'],
    ['DELETE', '/home'],
  ])('%s %s, unknown, answers a JSON 404', async (method, url) => {
    const response = await fetch(`${t.url}${url}`, { method, headers: { accept: 'text/html' } });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    const body = (await response.json()) as { error: string };
    expect(body.error).toMatch(/Not found/);
  });

  it.each([
    '/',
    '/home',
    '/questions',
    '/memories',
    '/memory?id=x',
    '/memoryForm',
    '/borderlessadmin',
    '/SpeakerLogin',
    '/speakers/ada-lovelace/dashboard',
    '/speakerscard',
    '/Speakerform',
    '/schedule',
    '/sessions/0193a0b2-7c1e-7b7a-9f3e-5d1c2a3b4c5d',
    '/privacy',
  ])('the client route %s returns the app, revalidated', async (route) => {
    const response = await fetch(`${t.url}${route}`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<title>Dev&lt;Fest&gt; &amp; &quot;Co&quot;</title>');
    expect(response.headers.get('cache-control')).not.toMatch(/immutable/);
  });

  it('every page names the event, and a page the browser holds is answered 304', async () => {
    const page = await fetch(`${t.url}/speakerscard`, { headers: { accept: 'text/html' } });
    const html = await page.text();
    expect(html).toContain(
      '<meta name="application-name" content="Dev&lt;Fest&gt; &amp; &quot;Co&quot;" />',
    );
    expect(html.match(/application-name/g)).toHaveLength(1);
    const etag = page.headers.get('etag') ?? '';
    expect(etag).toMatch(/^W\/".+"$/);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const again = await fetch(`${t.url}/speakerscard`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    // Another route is another page: it names its own first data call (decision 072).
    const home = await fetch(`${t.url}/home`, { headers: { 'if-none-match': etag } });
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('href="/api/memory?limit=60"');
    // The built file is not served as it is, without the name.
    expect((await fetch(`${t.url}/index.html`)).status).toBe(404);
  });

  it("pages with the attendee header start with its shell, the event's name escaped", async () => {
    const shellOf = async (route: string) => {
      const html = await (
        await fetch(`${t.url}${route}`, { headers: { accept: 'text/html' } })
      ).text();
      return /<div id="root">(.*?)<\/div><\/body>/s.exec(html)?.[1] ?? '';
    };
    for (const route of [
      '/home',
      '/speakerscard?speaker=x',
      '/memory?id=x',
      '/Speakerform',
      '/nowhere',
    ]) {
      const shell = await shellOf(route);
      expect(shell, route).toMatch(/^<header class="app-header">/);
      expect(shell, route).toContain('aria-label="Dev&lt;Fest&gt; &amp; &quot;Co&quot; home"');
      expect(shell, route).toContain('>Dev&lt;Fest&gt; &amp; &quot;Co&quot;</p>');
      expect(shell, route).toContain('href="/home"');
      expect(shell, route).not.toMatch(/<script|<Fest>/);
    }
    // The join page and the admin screen have no attendee header: their root stays empty.
    for (const route of ['/', '/borderlessadmin']) expect(await shellOf(route), route).toBe('');
  });

  it('an unknown page gets the app with a 404 status; an unknown asset a JSON 404', async () => {
    const page = await fetch(`${t.url}/no-such-page`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(404);
    expect(await page.text()).toContain('<title>Dev&lt;Fest&gt; &amp; &quot;Co&quot;</title>');
    const asset = await fetch(`${t.url}/assets/missing.js`);
    expect(asset.status).toBe(404);
    expect(asset.headers.get('content-type')).toMatch(/application\/json/);
  });

  it('hashed assets are cached for a year', async () => {
    const response = await fetch(`${t.url}/assets/main-abc123.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('sends security headers with a CSP that allows no inline script', async () => {
    const response = await fetch(`${t.url}/home`);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toMatch(/frame-ancestors 'none'/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  });
});

describe('health with S3 media', () => {
  it('reports the media store, and 503 when its bucket is gone', async () => {
    const t = await startTestApp({ media: 's3' });
    try {
      const ok = await fetch(`${t.url}/api/health`);
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual({ status: 'ok', checks: { database: 'ok', media: 'ok' } });
    } finally {
      await t.close();
    }
    const broken = await startTestApp({ media: 's3', env: { S3_BUCKET: 'no-such-bucket' } });
    try {
      const response = await fetch(`${broken.url}/api/health`);
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({
        error: 'Media store unavailable',
        code: 'SERVICE_UNAVAILABLE',
      });
    } finally {
      await broken.close();
    }
  });
});
