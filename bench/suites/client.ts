import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Manifest } from '../../src/server/http/pages/route-hints.ts';
import { routePreload } from '../../src/shared/route-preloads.ts';
import { startAppServer } from '../lib/processes.ts';
import { type Row, fmt } from '../lib/report.ts';

const CLIENT_DIR = path.join(import.meta.dirname, '..', '..', 'dist', 'client');

/**
 * The pages measured, with the lazy modules (manifest keys, relative to src/client) their route
 * loads before it can render: the join page is part of the entry; the other screens load with
 * `app/screen-providers.tsx` (router.tsx), as the server's preload hints name them
 * (src/shared/route-preloads.ts). What a screen loads later (a modal's code when it opens, the
 * toasts beside it, zod for the join form's check) is not counted.
 */
const PAGES = [
  { path: '/', label: 'join page /', lazy: [], budgetKb: 120 },
  {
    path: '/home',
    label: '/home',
    lazy: routePreload('/home')?.modules ?? [],
    budgetKb: undefined,
  },
  {
    path: '/speakerscard',
    label: 'Q&A room /speakerscard',
    lazy: routePreload('/speakerscard')?.modules ?? [],
    budgetKb: undefined,
  },
] as const;

/**
 * The JavaScript and CSS a page needs before its first render: the entry chunk and its static
 * imports, each lazy module of the route and its static imports, and the CSS of all of them.
 */
export function criticalFiles(manifest: Manifest, lazy: readonly string[]): string[] {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the build manifest`);
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit('index.html');
  for (const key of lazy) visit(key);
  return [...files];
}

const kb = (bytes: number) => `${fmt(bytes / 1024, 1)} KB`;

interface Sizes {
  raw: number;
  gzip: number;
  brotli: number;
}

async function sizesOf(files: readonly string[]): Promise<Sizes> {
  const total = { raw: 0, gzip: 0, brotli: 0 };
  for (const file of files) {
    const bytes = await fs.readFile(path.join(CLIENT_DIR, file));
    total.raw += bytes.length;
    total.gzip += gzipSync(bytes, { level: 9 }).length;
    total.brotli += brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
    }).length;
  }
  return total;
}

/** Bytes on the wire for one GET (the body as sent, before any decoding) and its encoding. */
function wireSize(
  url: string,
  acceptEncoding: string,
): Promise<{ bytes: number; encoding: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': acceptEncoding } }, (response) => {
        let bytes = 0;
        response.on('data', (chunk: Buffer) => (bytes += chunk.length));
        response.on('end', () =>
          resolve({ bytes, encoding: response.headers['content-encoding'] ?? 'identity' }),
        );
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

/**
 * The weight of the join page and /home before their first render, from the build manifest,
 * gzip and brotli at their highest levels, beside the whole client; then the same files as the
 * production server sends them to a browser that accepts brotli.
 */
export async function clientWeight(): Promise<Row[]> {
  const manifest = JSON.parse(
    await fs.readFile(path.join(CLIENT_DIR, '.vite', 'manifest.json'), 'utf8'),
  ) as Manifest;
  const everything = (await fs.readdir(path.join(CLIENT_DIR, 'assets')))
    .filter((file) => /\.(js|css)$/.test(file))
    .map((file) => `assets/${file}`);
  const whole = await sizesOf(everything);
  const rows: Row[] = [];
  const pages = PAGES.map((page) => ({ ...page, files: criticalFiles(manifest, page.lazy) }));
  for (const page of pages) {
    const sizes = await sizesOf(page.files);
    rows.push({
      name: `${page.label}: JS + CSS before first render, gzip (${page.files.length} files)`,
      value: `${kb(sizes.gzip)} (brotli ${kb(sizes.brotli)}, raw ${kb(sizes.raw)})`,
      reference: `${kb(whole.gzip)} gzip, the whole client (${everything.length} files)`,
      ratio: fmt(sizes.gzip / whole.gzip, 2),
      target: page.budgetKb === undefined ? 'informational' : `<= ${page.budgetKb} KB gzip`,
      met: page.budgetKb === undefined ? null : sizes.gzip <= page.budgetKb * 1024,
    });
  }

  const server = await startAppServer();
  try {
    for (const page of pages) {
      let wire = 0;
      const encodings = new Set<string>();
      for (const file of page.files) {
        const answer = await wireSize(`${server.url}/${file}`, 'br, gzip');
        wire += answer.bytes;
        encodings.add(answer.encoding);
      }
      const raw = (await sizesOf(page.files)).raw;
      rows.push({
        name: `${page.label}: the same files as served (Accept-Encoding: br, gzip)`,
        value: `${kb(wire)} (${[...encodings].join(', ')})`,
        reference: `${kb(raw)} uncompressed`,
        ratio: fmt(wire / raw, 2),
        target: 'brotli',
        met: encodings.size === 1 && encodings.has('br'),
      });
    }
  } finally {
    await server.stop();
  }
  return rows;
}
