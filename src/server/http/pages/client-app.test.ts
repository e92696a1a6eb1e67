import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../tests/support/manual-clock.ts';
import { seedMemories } from '../../../../tests/support/seed-memories.ts';
import { addSpeaker, askQuestion } from '../../../../tests/support/speakers.ts';
import { type TestApp, useTestApp } from '../../../../tests/support/test-app.ts';

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
    expect(html).toContain(`<style data-href="/assets/index-abc.css">${STYLES}</style>`);
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
    expect(html).toContain(`<style data-href="/assets/index-abc.css">${STYLES}</style>`);
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

/**
 * The prerender's tree for Node, as the build leaves it beside the client: this one writes down
 * what it was asked to render, the event's name as its slot.
 */
const RENDERER = `export function renderScreen(name, location, answers) {
  const lists = Object.entries(answers)
    .map(([url, list]) => '<li data-url="' + url.replaceAll('&', '&amp;') + '">' + list.length + '</li>')
    .join('');
  if (location.includes('throw')) throw new Error('cannot render');
  return '<header>%EVENT_NAME%</header><main data-screen="' + name + '" data-at="' + location.replaceAll('&', '&amp;') + '"><ul>' + lists + '</ul></main>';
}`;

/** The answers a page carries for its client (decision 185), read back from its data block. */
const dataBlockOf = (html: string): Record<string, unknown> | undefined => {
  const block = /<script type="application\/json" id="confab-page-data">(.*?)<\/script>/s.exec(
    html,
  );
  return block?.[1] === undefined ? undefined : (JSON.parse(block[1]) as Record<string, unknown>);
};

/** A built client with the render module beside it. */
const renderingClient = (renderer: string) => ({
  'index.html': BUILT_PAGE,
  'assets/index-abc.css': STYLES,
  '.prerendered/join.html': JOIN_MARKUP,
  '.prerendered/home.html': HOME_MARKUP,
  '.prerendered/qa.html': HOME_MARKUP,
  '.prerendered/server/prerender.js': renderer,
});

describe('/home and the Q&A room rendered with their first lists', () => {
  const clock = new ManualClock();
  const t = useTestApp({ client: renderingClient(RENDERER), clock });

  it('carries the gallery it was rendered with, its code loading after the first paint', async () => {
    const empty = await page(t, '/home');
    expect(empty.html).toContain(
      '<div id="root" data-shell=""><header>Confab</header><main data-screen="home" data-at="/home"><ul><li data-url="/api/memory?limit=60">0</li></ul></main></div>',
    );
    expect(dataBlockOf(empty.html)).toEqual({ '/api/memory?limit=60': [] });
    expect(empty.html).toContain('<script src="/after-paint.js" defer');
    expect(empty.html).not.toContain('<script type="module"');
    // Its first list is in the page: not fetched beside it.
    expect(empty.html).not.toContain('as="fetch"');

    // The same lists: the same page, revalidated.
    const again = await fetch(`${t.url}/home`, {
      headers: { accept: 'text/html', 'if-none-match': empty.response.headers.get('etag') ?? '' },
    });
    expect(again.status).toBe(304);

    // A new memory renders it again, a second after the last render at the latest; what the list
    // says is the API's answer, with no `<` that could end the data block.
    const [memory] = await seedMemories(t.app.deps, [
      { username: 'ada', text: '</script><script>alert(1)</script><!--' },
    ]);
    // At most once a second (on the app's clock): within it, the page made last.
    const soon = await page(t, '/home');
    expect(soon.html).toContain('<li data-url="/api/memory?limit=60">0</li>');
    clock.advance(1000);
    const shown = await page(t, '/home');
    expect(shown.html).toContain('<li data-url="/api/memory?limit=60">1</li>');
    const block = /<script type="application\/json" id="confab-page-data">(.*?)<\/script>/s.exec(
      shown.html,
    )?.[1];
    expect(block).not.toContain('<');
    const api = await fetch(`${t.url}/api/memory?limit=60`);
    expect(dataBlockOf(shown.html)).toEqual({
      '/api/memory?limit=60': (await api.json()) as unknown,
    });
    expect(JSON.stringify(dataBlockOf(shown.html))).toContain(memory?._id);
  });

  it('renders the Q&A room at the speaker asked for, and only an id names one', async () => {
    const speaker = await addSpeaker(t.url);
    await askQuestion(t.url, {
      speakerId: speaker._id,
      question: 'Rendered before the code?',
      askerUsername: 'grace',
    });
    const room = await page(t, `/speakerscard?speaker=${speaker._id}&other=1`);
    const questions = `/api/questions/realtime?speakerId=${speaker._id}&limit=200`;
    expect(room.html).toContain(`data-at="/speakerscard?speaker=${speaker._id}"`);
    const answers = dataBlockOf(room.html);
    expect(Object.keys(answers ?? {})).toEqual(['/api/speakerscard', questions]);
    expect(answers?.[questions]).toEqual(await (await fetch(`${t.url}${questions}`)).json());

    const odd = await page(t, '/speakerscard?speaker=%22%3E%3Cscript%3E');
    expect(odd.html).toContain('data-at="/speakerscard"');
    expect(Object.keys(dataBlockOf(odd.html) ?? {})).toEqual(['/api/speakerscard']);
  });
});

describe('a screen that cannot be rendered with its lists', () => {
  const t = useTestApp({
    client: renderingClient(RENDERER.replace("location.includes('throw')", 'true')),
  });

  it('is served as its shell, its code and first list preloaded', async () => {
    const { response, html } = await page(t, '/home');
    expect(response.status).toBe(200);
    expect(html).toContain(
      '<div id="root" data-shell=""><header>Confab</header><main><h1>Memories</h1></main></div>',
    );
    expect(dataBlockOf(html)).toBeUndefined();
    expect(html).toContain('<script type="module" crossorigin src="/assets/index-abc.js">');
  });
});
