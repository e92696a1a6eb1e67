import { describe, expect, it } from 'vitest';
import { type TestApp, useTestApp } from '../../../tests/support/test-app.ts';

/** A built page as Vite writes it: the entry's script, its preloads and its stylesheet. */
const BUILT_PAGE = [
  '<!doctype html><html lang="en" data-mantine-color-scheme="light"><head><title>app</title>',
  '<script src="/color-scheme.js" defer></script>',
  '<script type="module" crossorigin src="/assets/index-abc.js"></script>',
  '<link rel="modulepreload" crossorigin href="/assets/react-abc.js">',
  '<link rel="stylesheet" crossorigin href="/assets/index-abc.css">',
  '</head><body><div id="root"></div></body></html>',
].join('\n');

const STYLES = '.join{color:red}';
/** What the prerender writes: the join screen, the event's name as its slot. */
const JOIN_MARKUP = '<main><h1>Join the Fun at %EVENT_NAME%!</h1><button>Join Now</button></main>';

/** What the prerender writes for /home: its shell, the header naming the event. */
const HOME_MARKUP = '<header>%EVENT_NAME%</header><main><h1>Memories</h1></main>';

const page = async (t: TestApp, url: string, headers: Record<string, string> = {}) => {
  const response = await fetch(`${t.url}${url}`, { headers: { accept: 'text/html', ...headers } });
  return { response, html: await response.text() };
};

describe('the prerendered join page', () => {
  const t = useTestApp({
    env: { EVENT_NAME: 'Dev<Fest> & "Co"' },
    client: {
      'index.html': BUILT_PAGE,
      'assets/index-abc.css': STYLES,
      '.prerendered/join.html': JOIN_MARKUP,
      '.prerendered/home.html': HOME_MARKUP,
    },
  });

  it('carries its first screen, with the event name escaped, and its styles inline', async () => {
    const { response, html } = await page(t, '/');
    expect(response.status).toBe(200);
    expect(html).toContain(
      '<div id="root" data-prerendered=""><main><h1>Join the Fun at Dev&lt;Fest&gt; &amp; &quot;Co&quot;!</h1>',
    );
    expect(html).not.toContain('%EVENT_NAME%');
    expect(html).toContain(`<style>${STYLES}</style>`);
    expect(html).not.toContain('rel="stylesheet"');
    // Its code only makes it interactive: it loads after the first paint.
    expect(html).toContain(
      '<script src="/after-paint.js" defer data-entry="/assets/index-abc.js" data-preload="/assets/react-abc.js"></script>',
    );
    expect(html).not.toContain('<script type="module"');
    expect(html).not.toContain('rel="modulepreload"');
  });

  it('carries the shell of /home, replaced by the first render, with its styles inline', async () => {
    const { html } = await page(t, '/home');
    expect(html).toContain(
      '<div id="root" data-shell=""><header>Dev&lt;Fest&gt; &amp; &quot;Co&quot;</header><main><h1>Memories</h1></main></div>',
    );
    expect(html).toContain(`<style>${STYLES}</style>`);
    expect(html).not.toContain('rel="stylesheet"');
    // The screen's data comes with its code: that loads at once.
    expect(html).toContain('<script type="module" crossorigin src="/assets/index-abc.js">');
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/react-abc.js">');
  });

  it('leaves the other pages as built: they link their styles and draw their screens', async () => {
    for (const url of ['/memories', '/borderlessadmin', '/no-such-page']) {
      const { html } = await page(t, url);
      expect(html, url).not.toContain('data-prerendered');
      expect(html, url).toContain(
        '<link rel="stylesheet" crossorigin href="/assets/index-abc.css">',
      );
      expect(html, url).toContain('<script type="module" crossorigin');
    }
  });

  it('is drawn in the colour scheme its cookie names, and says it varies with it', async () => {
    const light = await page(t, '/');
    const dark = await page(t, '/', { cookie: 'other=1; confab-color-scheme=dark' });
    expect(light.html).toContain('data-mantine-color-scheme="light"');
    expect(dark.html).toContain('data-mantine-color-scheme="dark"');
    expect(dark.html).toContain('data-prerendered');
    expect(dark.response.headers.get('vary')).toMatch(/cookie/i);
    expect(dark.response.headers.get('etag')).not.toBe(light.response.headers.get('etag'));
    const home = await page(t, '/home', { cookie: 'confab-color-scheme=dark' });
    expect(home.html).toContain('data-mantine-color-scheme="dark"');
    // Anything else in the cookie is light.
    const odd = await page(t, '/', { cookie: 'confab-color-scheme=darkish' });
    expect(odd.html).toContain('data-mantine-color-scheme="light"');
  });
});
