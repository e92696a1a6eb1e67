import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { COLOR_SCHEME_STORAGE_KEY } from '../../shared/constants.ts';
import { CLIENT_ROUTES, clientRouteAt, hasAppHeader } from '../../shared/routes.ts';
import { appShell, withAppShell, withPrerendered } from './app-shell.ts';
import { CompressedText } from './compression.ts';
import { matchesIfNoneMatch, versionTag } from './conditional-get.ts';
import { HttpError } from './errors.ts';
import { escapeHtml } from './html.ts';
import { pageRateLimit } from './rate-limits.ts';
import { RouteHints, withHints } from './route-hints.ts';

const API_PREFIXES = ['/api/', '/media/', '/socket.io/'];

const isApiPath = (pathname: string) =>
  pathname === '/api' || API_PREFIXES.some((prefix) => pathname.startsWith(prefix));

/** What a page's HTML head says about it to link previews (Open Graph, twitter:card). */
export interface PageHead {
  title: string;
  meta: ({ property: string; content: string } | { name: string; content: string })[];
}

/**
 * Head tags for one client route, from its address; undefined keeps the page as built, null
 * answers it with a 404 (the thing the address names is not there).
 */
export type PageHeadRenderer = (request: FastifyRequest) => Promise<PageHead | null | undefined>;

export interface ClientAppOptions {
  /** The event's name, written into every page as `<meta name="application-name">`. */
  applicationName?: string;
  /** Server-rendered head tags, by client route path (e.g. `/memory`, `/m/:id`). */
  pageHead?: Partial<Record<string, PageHeadRenderer>>;
  /**
   * Images a page shows first, by exact client path, preloaded from the page (decision 072):
   * the browser fetches them with the code and data instead of after the first render.
   */
  pageImages?: Partial<Record<string, (request: FastifyRequest) => Promise<string[]>>>;
  /** Page loads and unknown paths a minute per person or connection (`PAGE_RATE_LIMIT`). */
  pageRateLimit?: number;
}

/** Hashed build output: its name changes with its content, so it never needs revalidating. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Files of `public/` (logo, pictures, the colour-scheme script): kept an hour, then revalidated. */
const PUBLIC_FILE = 'public, max-age=3600, must-revalidate';

/** A preload of an image the page shows first; only same-origin paths are taken. */
const imagePreload = (url: string) =>
  url.startsWith('/') && !url.startsWith('//')
    ? `<link rel="preload" as="image" fetchpriority="high" href="${escapeHtml(url)}" />`
    : '';

/** The built page with a head's title and meta tags put in; every value is escaped. */
export function withPageHead(html: string, head: PageHead): string {
  const tags = head.meta
    .map((tag) =>
      'property' in tag
        ? `<meta property="${escapeHtml(tag.property)}" content="${escapeHtml(tag.content)}" />`
        : `<meta name="${escapeHtml(tag.name)}" content="${escapeHtml(tag.content)}" />`,
    )
    .join('\n    ');
  const names = new Set(head.meta.flatMap((tag) => ('name' in tag ? [tag.name] : [])));
  let page = html.replace(
    /<title>[^<]*<\/title>/,
    () => `<title>${escapeHtml(head.title)}</title>`,
  );
  // A tag the head replaces (the page's own description) is removed first.
  page = page.replace(/\s*<meta\s+name="([^"]+)"[^>]*>/g, (tag, name: string) =>
    names.has(name) ? '' : tag,
  );
  return page.replace('</head>', () => `    ${tags}\n  </head>`);
}

/**
 * The built page naming the event: `<meta name="application-name">` carries `EVENT_NAME`, so the
 * client shows it at its first render without a call (decision 070). The value is escaped.
 */
export function withApplicationName(html: string, name: string): string {
  const tag = `<meta name="application-name" content="${escapeHtml(name)}" />`;
  const existing = /<meta\s+name="application-name"[^>]*>/;
  return existing.test(html)
    ? html.replace(existing, () => tag)
    : html.replace('</head>', () => `  ${tag}\n  </head>`);
}

type ColorScheme = 'light' | 'dark';

const DARK_COOKIE = new RegExp(`(?:^|;\\s*)${COLOR_SCHEME_STORAGE_KEY}=dark(?:;|$)`);

/** The scheme the visitor chose, from the cookie the client keeps beside its local storage. */
const colorSchemeOf = (request: FastifyRequest): ColorScheme =>
  DARK_COOKIE.test(request.headers.cookie ?? '') ? 'dark' : 'light';

/**
 * The page in a colour scheme: `<html data-mantine-color-scheme>` set here, so the first paint
 * is in the visitor's scheme without a script that blocks it (decision 106).
 */
const withColorScheme = (html: string, scheme: ColorScheme) =>
  html.replace(
    /(<html\b[^>]*\sdata-mantine-color-scheme=")[^"]*"/,
    (_match, start: string) => `${start}${scheme}"`,
  );

/**
 * The page with the entry's stylesheets in it (`<style>`) instead of linked: the prerendered
 * join page paints with the HTML alone, one round trip sooner (decision 106). Only the entry's
 * styles are built, so the page needs no other.
 */
async function withInlineStyles(html: string, clientDir: string): Promise<string> {
  const links = [
    ...html.matchAll(/<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)"[^>]*>/g),
  ];
  let page = html;
  for (const [tag, file = ''] of links) {
    const css = await fs.promises.readFile(path.join(clientDir, file), 'utf8');
    page = page.replace(tag, () => `<style>${css.replaceAll('</style', '<\\/style')}</style>`);
  }
  return page;
}

/**
 * Serves the built client: hashed assets cached for a year, the other files of `public/` for an
 * hour, both precompressed (brotli, gzip) when the build made `.br`/`.gz` siblings; and the page
 * (`index.html` with the event's name) for every client route (history fallback), from memory,
 * revalidated with its ETag. Everything else is a JSON 404.
 */
export async function registerClientApp(
  app: FastifyInstance,
  clientDir: string | undefined,
  options: ClientAppOptions = {},
): Promise<void> {
  const indexFile = clientDir ? path.join(clientDir, 'index.html') : undefined;
  const hasClient = indexFile !== undefined && fs.existsSync(indexFile);
  type Page = { html: string; etag: string; compressed: CompressedText };
  const pageOf = (html: string): Page => ({
    html,
    etag: versionTag([html]),
    compressed: new CompressedText(html, { keep: true }),
  });
  // The page as built, the same with the header's shell for the screens that have it, and with
  // the join page's first screen prerendered (decision 106); each in both colour schemes.
  type Pages = { plain: Page; shell: Page; join: Page };
  let pages: Record<ColorScheme, Pages> | undefined;
  let hints: RouteHints | undefined;
  // The page with each route's preload tags, by those tags (a few routes; the Q&A room's vary
  // with the speaker asked for, so the map is emptied when it grows).
  const hinted = new Map<string, Page>();
  const pageWithHints = (base: Page, tags: string): Page => {
    if (!tags) return base;
    const key = `${base.etag}\n${tags}`;
    let variant = hinted.get(key);
    if (!variant) {
      variant = pageOf(withHints(base.html, tags));
      if (hinted.size >= 100) hinted.clear();
      hinted.set(key, variant);
    }
    return variant;
  };

  if (hasClient && clientDir && indexFile) {
    const built = await fs.promises.readFile(indexFile, 'utf8');
    const html =
      options.applicationName === undefined
        ? built
        : withApplicationName(built, options.applicationName);
    const joinMarkup = await fs.promises
      .readFile(path.join(clientDir, '.prerendered', 'join.html'), 'utf8')
      .catch(() => undefined);
    const name = options.applicationName;
    const joinPage =
      name === undefined || joinMarkup === undefined
        ? html
        : withPrerendered(await withInlineStyles(html, clientDir), joinMarkup, name);
    const pagesIn = (scheme: ColorScheme): Pages => {
      const plain = pageOf(withColorScheme(html, scheme));
      return {
        plain,
        shell:
          name === undefined
            ? plain
            : pageOf(withColorScheme(withAppShell(html, appShell(name)), scheme)),
        join: pageOf(withColorScheme(joinPage, scheme)),
      };
    };
    pages = { light: pagesIn('light'), dark: pagesIn('dark') };
    hints = RouteHints.load(clientDir);
    await app.register(fastifyStatic, {
      root: clientDir,
      wildcard: false,
      index: false,
      serveDotFiles: false,
      // `x.js` is answered with `x.js.br` or `x.js.gz` when the browser takes it (and Vary says so).
      preCompressed: true,
      // The page is served below, with the event's name; the compressed siblings only as `x.js`.
      allowedPath: (pathname) => pathname !== '/index.html' && !/\.(br|gz)$/.test(pathname),
      setHeaders: (reply, filePath) => {
        const relative = path.relative(clientDir, filePath);
        reply.header(
          'cache-control',
          relative.startsWith(`assets${path.sep}`) ? IMMUTABLE : PUBLIC_FILE,
        );
      },
    });
  }

  app.setNotFoundHandler(
    { preHandler: pageRateLimit(app, options.pageRateLimit ?? 300) },
    async (request, reply) => {
      const pathname = request.url.split('?', 1)[0] ?? '/';
      const isPage =
        hasClient &&
        (request.method === 'GET' || request.method === 'HEAD') &&
        !isApiPath(pathname) &&
        (request.headers.accept ?? '').includes('text/html');
      const isClientRoute = clientRouteAt(pathname) !== undefined;
      const isRead = request.method === 'GET' || request.method === 'HEAD';
      if (!isPage && !(hasClient && isClientRoute && isRead)) {
        throw new HttpError(404, `Not found: ${request.method} ${pathname}`);
      }
      if (!pages) throw new HttpError(404, `Not found: ${request.method} ${pathname}`);
      const inScheme = pages[colorSchemeOf(request)];
      const base =
        clientRouteAt(pathname) === 'join'
          ? inScheme.join
          : hasAppHeader(pathname)
            ? inScheme.shell
            : inScheme.plain;
      // The page is drawn in the scheme its cookie names: a shared cache keeps one per cookie.
      reply.header('vary', 'Cookie');
      const routeName = clientRouteAt(pathname);
      const renderHead = routeName && options.pageHead?.[CLIENT_ROUTES[routeName].path];
      if (renderHead && request.method === 'GET') {
        let head: PageHead | null | undefined;
        try {
          head = await renderHead(request);
        } catch (error) {
          request.log.warn({ err: error }, 'page head could not be rendered');
        }
        if (head) {
          reply.code(200).type('text/html; charset=utf-8').header('cache-control', 'no-cache');
          return new CompressedText(withPageHead(base.html, head), { keep: false }).send(
            request,
            reply,
          );
        }
        if (head === null) {
          // The app shows "Memory not found"; a preview of the link shows nothing.
          reply.code(404).type('text/html; charset=utf-8').header('cache-control', 'no-cache');
          return base.compressed.send(request, reply);
        }
      }
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache');
      // Unknown pages still get the app (it shows "Page not found"), with a 404 status.
      if (!isClientRoute) return base.compressed.send(request, reply.code(404));
      const search = new URLSearchParams(request.url.split('?')[1] ?? '');
      let images: string[] = [];
      const findImages = options.pageImages?.[pathname.replace(/(.)\/$/, '$1')];
      if (findImages && request.method === 'GET') {
        try {
          images = await findImages(request);
        } catch (error) {
          request.log.warn({ err: error }, 'page images could not be found');
        }
      }
      const tags = [hints?.tags(pathname, search) ?? '', ...images.map(imagePreload)]
        .filter(Boolean)
        .join('\n    ');
      const answer = pageWithHints(base, tags);
      reply.header('etag', answer.etag);
      if (matchesIfNoneMatch(request, answer.etag)) return reply.code(304).send();
      return answer.compressed.send(request, reply.code(200));
    },
  );
}
