import zlib from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { rawGet } from '../../../../tests/support/raw-http.ts';
import { useTestApp } from '../../../../tests/support/test-app.ts';

describe('the API reference page', () => {
  let page: Response;
  let html: string;

  const t = useTestApp();
  beforeAll(async () => {
    page = await fetch(`${t.url}/api/docs`);
    html = await page.text();
  });

  it('is HTML under the app’s own CSP, with its headers and rate limit', () => {
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
    expect(csp).toMatch(/connect-src 'self'/);
    expect(csp).toMatch(/frame-ancestors 'none'/);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('x-ratelimit-limit')).toBe('300');
    expect(html).toContain('<title>Confab API</title>');
  });

  it('runs no inline script and loads scripts from its own origin only', async () => {
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    const sources: string[] = [];
    for (const [, attributes = '', body = ''] of scripts) {
      const src = /\bsrc="([^"]+)"/.exec(attributes)?.[1];
      if (src) {
        // Same origin: a path, not `//host` or `https://host`.
        expect(src).toMatch(/^\/[^/]/);
        sources.push(src);
      } else {
        // A data block for the reference's settings, never run.
        expect(attributes).toMatch(/type="application\/json"/);
        expect(body.trim()).toBe('');
      }
    }
    expect(sources).toEqual(['/api/docs/scalar.js']);
    expect(html).not.toMatch(/https?:\/\//);
    for (const src of sources) {
      const script = await fetch(`${t.url}${src}`);
      expect(script.status, src).toBe(200);
      expect(script.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
      expect(script.headers.get('x-content-type-options')).toBe('nosniff');
      expect((await script.text()).length).toBeGreaterThan(100_000);
    }
  });

  it('points the reference at the document this server serves', async () => {
    const configuration = /data-configuration="([^"]*)"/.exec(html)?.[1] ?? '';
    const settings = JSON.parse(configuration.replaceAll('&quot;', '"')) as {
      url: string;
      withDefaultFonts: boolean;
    };
    expect(settings.url).toBe('/api/openapi.json');
    // Its default fonts would come from another host.
    expect(settings.withDefaultFonts).toBe(false);
    expect((await fetch(`${t.url}${settings.url}`)).status).toBe(200);
  });

  it('sends its script compressed once, cached and revalidated', async () => {
    const plain = await rawGet(`${t.url}/api/docs/scalar.js`);
    const br = await rawGet(`${t.url}/api/docs/scalar.js`, { 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.body.length).toBeLessThan(plain.body.length / 2);
    expect(zlib.brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    const gzip = await rawGet(`${t.url}/api/docs/scalar.js`, { 'accept-encoding': 'gzip' });
    expect(zlib.gunzipSync(gzip.body).equals(plain.body)).toBe(true);
    expect(plain.headers['cache-control']).toBe('public, max-age=3600, must-revalidate');
    const etag = plain.headers.etag ?? '';
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await rawGet(`${t.url}/api/docs/scalar.js`, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('answers other paths under /api/docs with the JSON 404', async () => {
    for (const url of ['/api/docs/', '/api/docs/openapi.json', '/api/docs/js/scalar.js']) {
      const response = await fetch(`${t.url}${url}`);
      expect(response.status, url).toBe(404);
      expect(await response.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
  });
});
