import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RouteHints, withHints } from './route-hints.ts';

const manifest = {
  'index.html': {
    file: 'assets/index-1.js',
    imports: ['_shared-1.js'],
    css: ['assets/index-1.css'],
  },
  '_shared-1.js': { file: 'assets/shared-1.js', css: ['assets/index-1.css'] },
  'app/screen-providers.tsx': {
    file: 'assets/screen-providers-1.js',
    imports: ['_shared-1.js', '_query-1.js'],
    css: ['assets/screen-providers-1.css'],
  },
  '_query-1.js': { file: 'assets/query-1.js' },
  'app/routes/home-route.tsx': {
    file: 'assets/home-route-1.js',
    imports: ['index.html', '_query-1.js'],
    css: ['assets/home-route-1.css'],
  },
  'app/routes/qa-room-route.tsx': { file: 'assets/qa-room-route-1.js' },
};

describe('route preload hints', () => {
  let dir: string;
  let hints: RouteHints;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'confab-hints-'));
    await fs.mkdir(path.join(dir, '.vite'));
    await fs.writeFile(path.join(dir, '.vite', 'manifest.json'), JSON.stringify(manifest));
    hints = RouteHints.load(dir);
  });
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  it("names a route's chunks and styles that the page does not load already, and its first data", () => {
    const tags = hints.tags('/home', new URLSearchParams());
    expect(tags.split('\n').map((tag) => tag.trim())).toEqual([
      '<link rel="modulepreload" crossorigin href="/assets/screen-providers-1.js" />',
      '<link rel="modulepreload" crossorigin href="/assets/query-1.js" />',
      '<link rel="modulepreload" crossorigin href="/assets/home-route-1.js" />',
      '<link rel="preload" as="style" crossorigin href="/assets/screen-providers-1.css" />',
      '<link rel="preload" as="style" crossorigin href="/assets/home-route-1.css" />',
      '<link rel="preload" as="fetch" crossorigin href="/api/memory?limit=60" />',
    ]);
  });

  it("preloads the chosen speaker's questions in the Q&A room, only for a well-formed id", () => {
    const id = '01938f3c-0000-7000-8000-000000000000';
    const room = hints.tags('/speakerscard', new URLSearchParams({ speaker: id }));
    expect(room).toContain('href="/api/speakerscard"');
    expect(room).toContain(`href="/api/questions/realtime?speakerId=${id}&#38;limit=200"`);
    const odd = hints.tags('/speakerscard', new URLSearchParams({ speaker: '"><script>' }));
    expect(odd).not.toContain('questions/realtime');
    expect(odd).not.toContain('<script>');
  });

  it('adds nothing to the join page or to a route without preloads', () => {
    expect(hints.tags('/', new URLSearchParams())).toBe('');
    expect(hints.tags('/borderlessadmin', new URLSearchParams())).toBe('');
    const html = '<html><head><title>x</title></head></html>';
    expect(withHints(html, '')).toBe(html);
    expect(withHints(html, '<link />')).toBe(
      '<html><head><title>x</title>  <link />\n  </head></html>',
    );
  });

  it('names only the data when the build has no manifest', () => {
    const bare = RouteHints.load(os.tmpdir());
    expect(bare.tags('/home', new URLSearchParams())).toBe(
      '<link rel="preload" as="fetch" crossorigin href="/api/memory?limit=60" />',
    );
  });
});
