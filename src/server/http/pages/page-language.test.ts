import { beforeAll, describe, expect, it } from 'vitest';
import { messagesIn } from '../../../shared/i18n/catalogs.ts';
import { publicConfigSchema } from '../../../shared/schemas/config.ts';
import { adminToken, call, forged } from '../../../../tests/support/speakers.ts';
import { testDatabases, useTestApp } from '../../../../tests/support/test-app.ts';

const PASSWORD = 'language-admin-password';

/** A built page as Vite writes it, with the head the real one has. */
const BUILT_PAGE = [
  '<!doctype html><html lang="en" dir="ltr" data-mantine-color-scheme="light"><head>',
  '<meta name="application-name" content="Confab" />',
  '<title>Confab</title>',
  '<script type="module" crossorigin src="/assets/index-1.js"></script>',
  '</head><body><div id="root"></div></body></html>',
].join('\n');

/** The build's manifest: where each language's catalog chunk is. */
const MANIFEST = JSON.stringify({
  '../../shared/i18n/catalogs/en.json?catalog': { file: 'assets/en-1.js' },
  '../../shared/i18n/catalogs/fr.json?catalog': { file: 'assets/fr-1.js' },
  '../../shared/i18n/catalogs/ar.json?catalog': { file: 'assets/ar-1.js' },
});

describe.each(testDatabases)('the language of the pages on %s', (database) => {
  const t = useTestApp({
    database,
    env: { ADMIN_PASSWORD: PASSWORD },
    client: {
      'index.html': BUILT_PAGE,
      '.vite/manifest.json': MANIFEST,
      '.prerendered/join.html': '<main><h1>Join the Fun at %EVENT_NAME%!</h1></main>',
      '.prerendered/join.fr.html': '<main><h1>Rejoignez %EVENT_NAME% !</h1></main>',
      '.prerendered/join.ar.html': '<main><h1>انضم إلى %EVENT_NAME%</h1></main>',
    },
  });
  let admin: string;
  beforeAll(async () => {
    admin = await adminToken(t.url, PASSWORD);
  });

  const page = async (path: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${t.url}${path}`, {
      headers: { accept: 'text/html', ...headers },
    });
    const html = await response.text();
    return {
      response,
      html,
      lang: /<html[^>]*\slang="([^"]*)"/.exec(html)?.[1],
      dir: /<html[^>]*\sdir="([^"]*)"/.exec(html)?.[1],
    };
  };
  const settings = (body: unknown) =>
    call(t.url, 'PUT', '/api/admin/settings', { token: admin, body });

  it('answers the browser’s language, in its markup, with its catalog preloaded', async () => {
    const french = await page('/', { 'accept-language': 'de;q=0.9, fr-CA, en;q=0.5' });
    expect(french.lang).toBe('fr');
    expect(french.dir).toBe('ltr');
    expect(french.html).toContain('Rejoignez Confab !');
    expect(french.html).toContain('/assets/fr-1.js');
    expect(french.html).not.toContain('/assets/en-1.js');
    expect(french.response.headers.get('vary')).toMatch(/Cookie, Accept-Language/);

    const arabic = await page('/', { 'accept-language': 'ar-EG' });
    expect([arabic.lang, arabic.dir]).toEqual(['ar', 'rtl']);
    expect(arabic.html).toContain('انضم إلى Confab');

    // A language the app does not ship, none at all, or a malformed header: the default.
    for (const header of ['sv-SE, nb;q=0.8', '', 'fr;q=0', ';;;,,,q=x', 'x'.repeat(5000)]) {
      const fallback = await page('/', { 'accept-language': header });
      expect(fallback.response.status, header.slice(0, 20)).toBe(200);
      expect(fallback.lang, header.slice(0, 20)).toBe('en');
      expect(fallback.html).toContain('Join the Fun at Confab!');
    }
    // A language whose markup the build lacks is still named, drawn in the source language.
    expect((await page('/home', { 'accept-language': 'ja' })).lang).toBe('ja');
    // The header's shell, painted before any script, speaks it too.
    const shell = await page('/schedule', { 'accept-language': 'ar' });
    expect(shell.html).toContain(`aria-label="${messagesIn('ar').format('app.back')}"`);
    expect(shell.html).toContain('class="confab-flip-rtl"');
  });

  it('prefers the person’s saved choice to the browser’s, and the event’s offer to both', async () => {
    const chosen = await page('/', {
      'accept-language': 'fr',
      cookie: 'confab-color-scheme=dark; confab-language=ar',
    });
    expect([chosen.lang, chosen.dir]).toEqual(['ar', 'rtl']);
    expect(chosen.html).toContain('data-mantine-color-scheme="dark"');
    // A forged cookie is ignored.
    expect((await page('/', { cookie: 'confab-language="><script>' })).lang).toBe('en');

    expect((await settings({ languages: ['en', 'de'], defaultLanguage: 'de' })).status).toBe(200);
    try {
      expect((await page('/', { 'accept-language': 'fr' })).lang).toBe('de');
      expect((await page('/', { cookie: 'confab-language=ar' })).lang).toBe('de');
      expect((await page('/', { 'accept-language': 'en-GB' })).lang).toBe('en');
      const config = publicConfigSchema.parse(await (await fetch(`${t.url}/api/config`)).json());
      expect(config).toMatchObject({ languages: ['en', 'de'], defaultLanguage: 'de' });
    } finally {
      await settings({
        languages: ['en', 'fr', 'de', 'es', 'pt', 'ar', 'ja'],
        defaultLanguage: 'en',
      });
    }
  });

  it('draws big screens in the event’s default or their address’s language, the console in English', async () => {
    const person = { 'accept-language': 'fr', cookie: 'confab-language=ar' };
    expect((await page('/wall', person)).lang).toBe('en');
    expect((await page('/wall?lang=ja', person)).lang).toBe('ja');
    expect((await page('/rooms/abc/present?lang=pt-BR', person)).lang).toBe('pt');
    expect((await page('/overlay/sessions/abc?lang=xx', person)).lang).toBe('en');
    expect((await page('/borderlessadmin', person)).lang).toBe('en');
    expect((await settings({ defaultLanguage: 'fr' })).status).toBe(200);
    try {
      expect((await page('/wall', person)).lang).toBe('fr');
      expect((await page('/borderlessadmin', person)).lang).toBe('en');
    } finally {
      await settings({ defaultLanguage: 'en' });
    }
  });

  it('takes languages as codes the app ships, regional ones as theirs, and refuses the rest', async () => {
    const regional = await settings({ languages: ['pt-BR', 'en', 'EN', 'fr_CA'] });
    expect(regional.status).toBe(200);
    expect(await regional.json()).toMatchObject({ languages: ['pt', 'en', 'fr'] });
    for (const body of [
      { languages: [] },
      { languages: ['xx'] },
      { languages: 'en' },
      { languages: [42] },
      { languages: ['en', { code: 'fr' }] },
      { languages: ['e'.repeat(10_000)] },
      { languages: Array.from({ length: 1000 }, () => 'en') },
      { defaultLanguage: 'ar' },
      { defaultLanguage: 'xx' },
      { defaultLanguage: null },
      { languages: ['fr'], defaultLanguage: 'en' },
    ]) {
      const response = await settings(body);
      expect(response.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      const error = (await response.json()) as { error?: unknown; code?: unknown };
      expect(typeof error.error).toBe('string');
      expect(typeof error.code).toBe('string');
    }
    // Nothing of the refused ones was kept.
    const kept = (await (
      await call(t.url, 'GET', '/api/admin/settings', { token: admin })
    ).json()) as {
      languages: string[];
      defaultLanguage: string;
    };
    expect(kept).toMatchObject({ languages: ['pt', 'en', 'fr'], defaultLanguage: 'en' });
    for (const token of [undefined, forged(admin)]) {
      const response = await call(t.url, 'PUT', '/api/admin/settings', {
        token,
        body: { languages: ['en'] },
      });
      expect(response.status).toBe(401);
    }
    await settings({ languages: ['en', 'fr', 'de', 'es', 'pt', 'ar', 'ja'] });
  });
});
