import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BRAND_STYLE_ID, brandCss } from '../../../shared/brand-palette.ts';
import { LOGO_FILE, LOGO_ROUTE, defaultLogoUrl, logoSvg } from '../../../shared/logo.ts';
import { SERVICE_WORKER_HEADER } from '../../../shared/pwa.ts';
import { PAGE_DATA_ID, isId, routePreload } from '../../../shared/route-preloads.ts';
import { COLOR_SCHEME_STORAGE_KEY, DATA_KEPT_META, LOGO_META } from '../../../shared/constants.ts';
import {
  LANGUAGES,
  LANGUAGE_STORAGE_KEY,
  type Language,
  SCREEN_LANGUAGE_PARAM,
  SOURCE_LANGUAGE,
  acceptedLanguages,
  directionOf,
  languageOf,
  pickLanguage,
} from '../../../shared/i18n/languages.ts';
import {
  CLIENT_PATHS,
  CLIENT_ROUTES,
  type ClientRouteName,
  clientRouteAt,
  hasAppHeader,
  screenLanguage,
} from '../../../shared/routes.ts';
import { appShell, withAppShell, withPrerendered } from './app-shell.ts';
import type { AnswerMemo } from '../transport/answer-memo.ts';
import { CompressedText } from '../transport/compression.ts';
import { CriticalStyles } from './critical-css.ts';
import { matchesIfNoneMatch } from '../transport/conditional-get.ts';
import { notFound } from '../errors.ts';
import { escapeHtml } from './html.ts';
import { pageRateLimit } from '../transport/rate-limits.ts';
import type { Clock } from '../../lib/clock.ts';
import { RouteHints, withHints } from './route-hints.ts';
import { CACHE_CONTROL, cacheHeaders } from '../transport/cache-headers.ts';

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

/** What every page shows of the event, and a version that changes whenever it does. */
export interface PageBranding {
  eventName: string;
  primaryColor: string;
  logoUrl: string | null;
  /** The last day attendees' data is kept (`YYYY-MM-DD`, decision 217); null or absent: no end. */
  dataKeptUntil?: string | null;
  /** The languages attendees may choose, and the event's default (decision 246); absent: all, English. */
  languages?: readonly Language[];
  defaultLanguage?: Language;
  version: string;
}

export interface ClientAppOptions {
  /** The app's memo of tags and encodings (one per app, the `answer-memo` plugin). */
  answers: AnswerMemo;
  /** The app's time source: how long a screen rendered with its lists is served before another. */
  clock: Clock;
  /**
   * The event's name, colour and logo as they are now (the admin's settings): written into every
   * page (title, `<meta name="application-name">`, `theme-color`, the colour's shades, the
   * shell and the prerendered join page). Pages are made once per version.
   */
  branding?: () => PageBranding;
  /** Server-rendered head tags, by client route path (e.g. `/memory`, `/m/:id`). */
  pageHead?: Partial<Record<string, PageHeadRenderer>>;
  /**
   * Images a page shows first, by exact client path, preloaded from the page (decision 072):
   * the browser fetches them with the code and data instead of after the first render.
   */
  pageImages?: Partial<Record<string, (request: FastifyRequest) => Promise<string[]>>>;
  /** Page loads and unknown paths a minute per person or connection (`PAGE_RATE_LIMIT`). */
  pageRateLimit?: number;
  /**
   * The answer a list's address gives now (`readListAnswer`): /home and the Q&A room are
   * rendered with their first lists and carry them (decision 185). Without it, their shells.
   */
  listAnswer?: (url: string) => Promise<{ tag: string; json: string } | undefined>;
}

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

/** The page with `<meta name="…">` set to `content` (added when the page has none). */
function withMeta(html: string, name: string, content: string): string {
  const tag = `<meta name="${name}" content="${escapeHtml(content)}" />`;
  const existing = new RegExp(`<meta\\s+name="${name}"[^>]*>`);
  return existing.test(html)
    ? html.replace(existing, () => tag)
    : html.replace('</head>', () => `  ${tag}\n  </head>`);
}

/**
 * The built page naming the event: `<meta name="application-name">` carries its name, so the
 * client shows it at its first render without a call (decision 070), and the title says it.
 * The value is escaped.
 */
export function withApplicationName(html: string, name: string): string {
  return withMeta(html, 'application-name', name).replace(
    /<title>[^<]*<\/title>/,
    () => `<title>${escapeHtml(name)}</title>`,
  );
}

/**
 * The page in the event's branding (decision 162): name and title, `theme-color`, the logo
 * (`<meta name="confab-logo">` for the client, and the icon), and the primary colour's shades
 * in `<style id="confab-brand">`, which the theme refers to; the client reads them from here at
 * its first render and replaces them when the settings change.
 */
export function withBranding(html: string, branding: Omit<PageBranding, 'version'>): string {
  let page = withApplicationName(html, branding.eventName);
  page = withMeta(page, 'theme-color', branding.primaryColor);
  page = withMeta(page, LOGO_META, branding.logoUrl ?? '');
  page = withMeta(page, DATA_KEPT_META, branding.dataKeptUntil ?? '');
  page = page.replace(/<link rel="icon"[^>]*>/, () =>
    branding.logoUrl
      ? `<link rel="icon" href="${escapeHtml(branding.logoUrl)}" />`
      : `<link rel="icon" type="image/svg+xml" href="${defaultLogoUrl(branding.primaryColor)}" />`,
  );
  const style = `<style id="${BRAND_STYLE_ID}">${brandCss(branding.primaryColor)}</style>`;
  const existing = new RegExp(`<style id="${BRAND_STYLE_ID}">[^<]*</style>`);
  return existing.test(page)
    ? page.replace(existing, () => style)
    : page.replace('</head>', () => `  ${style}\n  </head>`);
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

const LANGUAGE_COOKIE = new RegExp(`(?:^|;\\s*)${LANGUAGE_STORAGE_KEY}=([A-Za-z-]{2,35})(?:;|$)`);

/**
 * The language a page is drawn in (decision 246): a big screen's is the one its address names,
 * else the event's default; the console's is English; a person's is their saved choice (the
 * cookie the client keeps beside its local storage), else the first of their browser's
 * languages the event offers, else the event's default.
 */
export function pageLanguage(
  request: FastifyRequest,
  pathname: string,
  search: URLSearchParams,
  branding: Pick<PageBranding, 'languages' | 'defaultLanguage'> | undefined,
): Language {
  const fallback = branding?.defaultLanguage ?? SOURCE_LANGUAGE;
  switch (screenLanguage(pathname)) {
    case 'console':
      return SOURCE_LANGUAGE;
    case 'big-screen':
      return languageOf(search.get(SCREEN_LANGUAGE_PARAM)) ?? fallback;
    default:
      return pickLanguage({
        chosen: LANGUAGE_COOKIE.exec(request.headers.cookie ?? '')?.[1],
        browser: acceptedLanguages(request.headers['accept-language']),
        enabled: branding?.languages ?? LANGUAGES,
        fallback,
      });
  }
}

/** The page in a language: `<html lang dir>`, so it is read, spoken and laid out as written. */
const withLanguage = (html: string, language: Language) =>
  html.replace(
    /<html\b([^>]*)>/,
    (_match, attributes: string) =>
      `<html${attributes
        .replace(/\s(lang|dir)="[^"]*"/g, '')
        .replace(/^/, ` lang="${language}" dir="${directionOf(language)}"`)}>`,
  );

/** A preload of the language's catalog, the chunk the first render waits for. */
const catalogPreload = (file: string | undefined) =>
  file ? `<link rel="modulepreload" crossorigin href="/${escapeHtml(file)}">` : '';

/** Each language's catalog chunk, from the build's manifest (decision 246). */
async function catalogFiles(clientDir: string): Promise<Partial<Record<Language, string>>> {
  try {
    const manifest = JSON.parse(
      await fs.promises.readFile(path.join(clientDir, '.vite', 'manifest.json'), 'utf8'),
    ) as Record<string, { file?: string }>;
    const files: Partial<Record<Language, string>> = {};
    for (const [source, chunk] of Object.entries(manifest)) {
      const language = /i18n\/catalogs\/([a-z]+)\.json\?catalog$/.exec(source)?.[1];
      if (language && languageOf(language) === language && chunk.file) {
        files[language] = chunk.file;
      }
    }
    return files;
  } catch {
    return {};
  }
}

/**
 * The page with the entry's stylesheets in it (`<style>`) instead of linked, and those of
 * `screenStyles` (built paths, `assets/…`) after them: a prerendered screen paints with the HTML
 * alone, one round trip sooner (decisions 106 and 173).
 */
async function withInlineStyles(
  html: string,
  clientDir: string,
  screenStyles: string[] = [],
): Promise<string> {
  const styleOf = async (file: string) => {
    const css = await fs.promises.readFile(path.join(clientDir, file), 'utf8');
    return `<style data-href="/${file}">${css.replaceAll('</style', '<\\/style')}</style>`;
  };
  const links = [
    ...html.matchAll(/<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)"[^>]*>/g),
  ];
  let page = html;
  for (const [tag, file = ''] of links) {
    const style = await styleOf(file);
    page = page.replace(tag, () => style);
  }
  const more = await Promise.all(screenStyles.map(styleOf));
  return more.length ? page.replace('</head>', () => `  ${more.join('')}\n  </head>`) : page;
}

/**
 * The screens prerendered at build time (decisions 106 and 173), by client route. `renderedAt`:
 * the server renders the screen again with its first lists (decision 185), at the address that
 * decides what it shows (the page's query reduced to what the screen reads first).
 */
const PRERENDERED = {
  join: { file: 'join.html', hydrate: true },
  home: { file: 'home.html', hydrate: false, renderedAt: () => CLIENT_PATHS.home },
  speakersCard: {
    file: 'qa.html',
    hydrate: false,
    renderedAt: (search: URLSearchParams) => {
      const speaker = search.get('speaker');
      return isId(speaker)
        ? `${CLIENT_PATHS.speakersCard}?speaker=${speaker}`
        : CLIENT_PATHS.speakersCard;
    },
  },
} as const satisfies Partial<
  Record<
    ClientRouteName,
    { file: string; hydrate: boolean; renderedAt?: (search: URLSearchParams) => string }
  >
>;
type PrerenderedRoute = keyof typeof PRERENDERED;
type RenderedRoute = {
  [Name in PrerenderedRoute]: (typeof PRERENDERED)[Name] extends { renderedAt: unknown }
    ? Name
    : never;
}[PrerenderedRoute];
const isPrerendered = (name: ClientRouteName | undefined): name is PrerenderedRoute =>
  name !== undefined && name in PRERENDERED;
const isRendered = (name: PrerenderedRoute): name is RenderedRoute =>
  'renderedAt' in PRERENDERED[name];

/** The shortest time between two renders of one screen at one address (decision 185). */
const RENDER_EVERY_MS = 1000;

/** The prerender's tree for Node (`scripts/prerender.mjs`): renders a screen with its lists. */
type RenderScreen = (
  name: RenderedRoute,
  location: string,
  answers: Record<string, unknown>,
  language: Language,
) => string;

/** The page's data block: JSON answers by address, with no `<` that could end the element. */
const pageDataBlock = (answers: [url: string, json: string][]) =>
  `<script type="application/json" id="${PAGE_DATA_ID}">{${answers
    .map(([url, json]) => `${JSON.stringify(url)}:${json}`)
    .join(',')
    .replaceAll('<', '\\u003c')}}</script>`;

/**
 * Serves the built client: hashed assets cached for a year, the other files of `public/` for an
 * hour, both precompressed (brotli, gzip) when the build made `.br`/`.gz` siblings; and the page
 * (`index.html` with the event's name) for every client route (history fallback), from memory,
 * revalidated with its ETag. Everything else is a JSON 404.
 */
export async function registerClientApp(
  app: FastifyInstance,
  clientDir: string | undefined,
  options: ClientAppOptions,
): Promise<void> {
  const { answers, clock } = options;
  const encodingOf = (request: FastifyRequest) =>
    answers.acceptedEncoding(request.headers['accept-encoding']);
  const indexFile = clientDir ? path.join(clientDir, 'index.html') : undefined;
  const hasClient = indexFile !== undefined && fs.existsSync(indexFile);
  // The app's own logo in the colour its address names (`src/shared/logo.ts`): the default
  // logo follows the event's colour. Each address always answers the same picture.
  app.get<{ Params: { file: string } }>(LOGO_ROUTE, async (request, reply) => {
    const color = LOGO_FILE.exec(request.params.file)?.[1];
    if (!color) throw notFound('route', 'GET', request.url.split('?', 1)[0] ?? '');
    const svg = logoSvg(`#${color}`);
    const etag = answers.versionTag([svg]);
    cacheHeaders.immutable(reply).header('etag', etag);
    if (matchesIfNoneMatch(request, etag)) return reply.code(304).send();
    return reply.type('image/svg+xml').send(svg);
  });
  type Page = { html: string; etag: string; compressed: CompressedText };
  const pageOf = (html: string, keep: 'forever' | 'version' = 'forever'): Page => ({
    html,
    etag: answers.versionTag([html]),
    compressed: new CompressedText(html, { keep }),
  });
  // The page as built, the same with the header's shell for the screens that have it, and with
  // the screens prerendered at build time in it (decisions 106 and 173); each in both colour
  // schemes.
  type Pages = { plain: Page; shell: Page; prerendered: Partial<Record<PrerenderedRoute, Page>> };
  let hints: RouteHints | undefined;
  // The page with each route's preload tags, by those tags (a few routes; the Q&A room's vary
  // with the speaker asked for, so the map is emptied when it grows).
  const hinted = new Map<string, Page>();
  const pageWithHints = (base: Page, tags: string): Page => {
    if (!tags) return base;
    const key = `${base.etag}\n${tags}`;
    let variant = hinted.get(key);
    if (!variant) {
      // Made again whenever the gallery's first pictures change: compressed quickly.
      variant = pageOf(withHints(base.html, tags), 'version');
      if (hinted.size >= 100) hinted.clear();
      hinted.set(key, variant);
    }
    return variant;
  };

  // The pages of the branding in force, made at its first use after a change (decision 162).
  let pagesFor:
    ((branding: PageBranding, language: Language) => Record<ColorScheme, Pages>) | undefined;
  // The screens rendered with their first lists (decision 185): the tree that renders them, the
  // page each goes in (styles inline), and the last page made for each branding, scheme and
  // address, with the versions of the lists it shows (a few screens and speakers: emptied when
  // it grows).
  let renderScreen: RenderScreen | undefined;
  const styledPages = new Map<PrerenderedRoute, string>();
  let catalogs: Partial<Record<Language, string>> = {};
  const rendered = new Map<string, { versions: string; madeAt: number; page: Page }>();
  const criticalStyles = new CriticalStyles();
  if (hasClient && clientDir && indexFile) {
    const built = await fs.promises.readFile(indexFile, 'utf8');
    catalogs = await catalogFiles(clientDir);
    hints = RouteHints.load(clientDir);
    const routeHints = hints;
    // Each prerendered screen's markup in each language (`join.fr.html`; `join.html` is the
    // source language's, and stands in for a language the build lacks), with the page it goes
    // in: every stylesheet it needs inline. A build without the markup serves those routes as
    // the others.
    const readMarkup = (file: string) =>
      fs.promises
        .readFile(path.join(clientDir, '.prerendered', file), 'utf8')
        .catch(() => undefined);
    const prerendered = (
      await Promise.all(
        (Object.keys(PRERENDERED) as PrerenderedRoute[]).map(async (name) => {
          const file = PRERENDERED[name].file;
          const source = await readMarkup(file);
          if (source === undefined) return [];
          const markups = Object.fromEntries(
            await Promise.all(
              LANGUAGES.map(async (language) => [
                language,
                (await readMarkup(file.replace(/\.html$/, `.${language}.html`))) ?? source,
              ]),
            ),
          ) as Record<Language, string>;
          const styles = routeHints.styles(CLIENT_ROUTES[name].path);
          return [{ name, markups, page: await withInlineStyles(built, clientDir, styles) }];
        }),
      )
    ).flat();
    for (const { name, page } of prerendered) styledPages.set(name, page);
    const renderer = path.join(clientDir, '.prerendered', 'server', 'prerender.js');
    if (options.listAnswer && fs.existsSync(renderer)) {
      try {
        ({ renderScreen } = (await import(pathToFileURL(renderer).href)) as {
          renderScreen: RenderScreen;
        });
      } catch (error) {
        app.log.warn({ err: error }, 'screens cannot be rendered with their data: shells served');
      }
    }
    // A page in a language says so (`<html lang dir>`) and preloads that language's catalog.
    const inLanguage = (html: string, language: Language) =>
      withLanguage(html, language).replace(
        '</head>',
        () => `  ${catalogPreload(catalogs[language])}\n  </head>`,
      );
    const make = (
      branding: PageBranding | undefined,
      language: Language,
    ): Record<ColorScheme, Pages> => {
      const html = inLanguage(
        branding === undefined ? built : withBranding(built, branding),
        language,
      );
      const prerenderedPages =
        branding === undefined
          ? []
          : prerendered.map(({ name, markups, page }) => ({
              name,
              html: withPrerendered(
                inLanguage(withBranding(page, branding), language),
                markups[language],
                branding,
                { hydrate: PRERENDERED[name].hydrate, language },
              ),
            }));
      const pagesIn = (scheme: ColorScheme): Pages => {
        const plain = pageOf(withColorScheme(html, scheme));
        return {
          plain,
          shell:
            branding === undefined
              ? plain
              : pageOf(
                  withColorScheme(
                    withAppShell(
                      html,
                      appShell(
                        branding.eventName,
                        branding.logoUrl ?? defaultLogoUrl(branding.primaryColor),
                        language,
                      ),
                    ),
                    scheme,
                  ),
                ),
          prerendered: Object.fromEntries(
            prerenderedPages.map(({ name, html: page }) => [
              name,
              pageOf(withColorScheme(page, scheme)),
            ]),
          ),
        };
      };
      return { light: pagesIn('light'), dark: pagesIn('dark') };
    };
    // Made per language at its first use after a change of the branding.
    let made: { version: string; pages: Map<Language, Record<ColorScheme, Pages>> } | undefined;
    pagesFor = (branding, language) => {
      const version = options.branding ? branding.version : '';
      if (made?.version !== version) {
        made = { version, pages: new Map() };
        hinted.clear();
      }
      let pages = made.pages.get(language);
      if (!pages) {
        pages = make(options.branding ? branding : undefined, language);
        made.pages.set(language, pages);
      }
      return pages;
    };
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
        // Hashed build output never needs revalidating: its name changes with its content. The
        // files of `public/` (logo, pictures, the colour-scheme script) keep their names.
        const relative = path.relative(clientDir, filePath);
        reply.header(
          'cache-control',
          relative.startsWith(`assets${path.sep}`) ? CACHE_CONTROL.immutable : CACHE_CONTROL.hour,
        );
      },
    });
  }

  /**
   * The page of a screen rendered with its first lists (decision 185), or undefined when it is
   * not (no tree to render with, a list that cannot be read): its shell is served then.
   */
  const renderedPage = async (
    name: RenderedRoute,
    search: URLSearchParams,
    scheme: ColorScheme,
    branding: PageBranding,
    withCode: boolean,
    language: Language,
  ): Promise<Page | undefined> => {
    const styled = styledPages.get(name);
    const { listAnswer } = options;
    if (!renderScreen || !listAnswer || styled === undefined) return undefined;
    const location = PRERENDERED[name].renderedAt(search);
    const [pathname = '', query = ''] = location.split('?', 2);
    const urls = routePreload(pathname)?.data?.(new URLSearchParams(query)) ?? [];
    const answers: [url: string, json: string][] = [];
    const tags: string[] = [];
    for (const url of urls) {
      const answer = await listAnswer(url);
      if (!answer) return undefined;
      answers.push([url, answer.json]);
      tags.push(answer.tag);
    }
    const key = [branding.version, scheme, location, withCode, language].join('\n');
    const versions = tags.join(' ');
    const last = rendered.get(key);
    // A room whose votes move its list several times a second is rendered at most once a
    // second: the page is that much older, and the code brings it up to date at once.
    if (
      last &&
      (last.versions === versions || clock.now().getTime() - last.madeAt < RENDER_EVERY_MS)
    ) {
      return last.page;
    }
    const markup = renderScreen(
      name,
      location,
      Object.fromEntries(answers.map(([url, json]) => [url, JSON.parse(json) as unknown])),
      language,
    );
    // The route's code is named in the page for the loader that runs after the first paint,
    // not preloaded beside it: nothing but the HTML and the pictures comes before that paint.
    const code = withCode
      ? hints?.tags(pathname, new URLSearchParams(query), { stylesInPage: true, dataInPage: true })
      : '';
    // Its styles cut to what the markup uses: the whole sheets follow after the first paint.
    const html = criticalStyles
      .cut(
        withPrerendered(
          withBranding(
            withHints(
              withLanguage(styled, language),
              [catalogPreload(catalogs[language]), code ?? ''].filter(Boolean).join('\n    '),
            ),
            branding,
          ),
          markup,
          branding,
          { hydrate: false, codeAfterPaint: true, language },
        ),
      )
      .replace('</body>', () => `  ${pageDataBlock(answers)}\n  </body>`);
    // Made again whenever the lists change: compressed quickly.
    const page = pageOf(withColorScheme(html, scheme), 'version');
    if (rendered.size >= 100) rendered.clear();
    rendered.set(key, { versions, madeAt: clock.now().getTime(), page });
    return page;
  };

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
        throw notFound('route', request.method, pathname);
      }
      if (!pagesFor) throw notFound('route', request.method, pathname);
      const branding = options.branding?.();
      const search = new URLSearchParams(request.url.split('?')[1] ?? '');
      const language = pageLanguage(request, pathname, search, branding);
      const pages = pagesFor(
        branding ?? { eventName: '', primaryColor: '', logoUrl: null, version: '' },
        language,
      );
      const scheme = colorSchemeOf(request);
      const inScheme = pages[scheme];
      const routeName = clientRouteAt(pathname);
      // Fetched by the service worker, which answers the built files itself: no preloads of
      // them (the browser would not use them, and warns).
      const fromServiceWorker = request.headers[SERVICE_WORKER_HEADER] !== undefined;
      let withData: Page | undefined;
      if (
        isPrerendered(routeName) &&
        isRendered(routeName) &&
        branding &&
        request.method === 'GET'
      ) {
        try {
          withData = await renderedPage(
            routeName,
            search,
            scheme,
            branding,
            !fromServiceWorker,
            language,
          );
        } catch (error) {
          request.log.warn({ err: error }, 'screen could not be rendered with its data');
        }
      }
      const prerenderedPage =
        withData ?? (isPrerendered(routeName) ? inScheme.prerendered[routeName] : undefined);
      const base = prerenderedPage ?? (hasAppHeader(pathname) ? inScheme.shell : inScheme.plain);
      // The page is drawn in the scheme and the language its cookies name, else in the language
      // the browser asks for: a shared cache keeps one per cookie and language asked for.
      reply.header('vary', `Cookie, Accept-Language, ${SERVICE_WORKER_HEADER}`);
      const renderHead = routeName && options.pageHead?.[CLIENT_ROUTES[routeName].path];
      if (renderHead && request.method === 'GET') {
        let head: PageHead | null | undefined;
        try {
          head = await renderHead(request);
        } catch (error) {
          request.log.warn({ err: error }, 'page head could not be rendered');
        }
        if (head) {
          cacheHeaders.revalidate(reply.code(200).type('text/html; charset=utf-8'));
          return new CompressedText(withPageHead(base.html, head), { keep: false }).send(
            reply,
            encodingOf(request),
          );
        }
        if (head === null) {
          // The app shows "Memory not found"; a preview of the link shows nothing.
          cacheHeaders.revalidate(reply.code(404).type('text/html; charset=utf-8'));
          return base.compressed.send(reply, encodingOf(request));
        }
      }
      cacheHeaders.revalidate(reply.type('text/html; charset=utf-8'));
      // Unknown pages still get the app (it shows "Page not found"), with a 404 status.
      if (!isClientRoute) return base.compressed.send(reply.code(404), encodingOf(request));
      let images: string[] = [];
      const findImages = options.pageImages?.[pathname.replace(/(.)\/$/, '$1')];
      if (findImages && request.method === 'GET') {
        try {
          images = await findImages(request);
        } catch (error) {
          request.log.warn({ err: error }, 'page images could not be found');
        }
      }
      const tags = [
        (withData || fromServiceWorker
          ? ''
          : hints?.tags(pathname, search, { stylesInPage: prerenderedPage !== undefined })) ?? '',
        ...images.map(imagePreload),
      ]
        .filter(Boolean)
        .join('\n    ');
      const answer = pageWithHints(base, tags);
      reply.header('etag', answer.etag);
      if (matchesIfNoneMatch(request, answer.etag)) return reply.code(304).send();
      return answer.compressed.send(reply.code(200), encodingOf(request));
    },
  );
}
