import fs from 'node:fs';
import path from 'node:path';
import { type RoutePreload, routePreload } from '../../../shared/route-preloads.ts';

/** One chunk of Vite's build manifest (`build.manifest`), keyed by source path. */
export interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk | undefined>;

/** The route's files, each once: JavaScript chunks (with their static imports) and stylesheets. */
interface RouteFiles {
  scripts: string[];
  styles: string[];
}

const escapeAttribute = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Reads the build manifest and answers, for a client path, the `<link>` tags that let the browser
 * fetch the route's code and first data while it still loads the entry (decision 072):
 * `modulepreload` for the route's chunks, `preload` for their stylesheets (Vite's loader adds
 * them when the route is imported; this only starts the download) and for the screen's first
 * GET calls. Without a manifest (a build without one, or tests) it answers nothing.
 */
export class RouteHints {
  private readonly files = new Map<RoutePreload, RouteFiles>();

  private constructor(private readonly manifest: Manifest | undefined) {}

  static load(clientDir: string): RouteHints {
    const file = path.join(clientDir, '.vite', 'manifest.json');
    if (!fs.existsSync(file)) return new RouteHints(undefined);
    return new RouteHints(JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest);
  }

  /**
   * The tags for a path and its query; '' for a route without preloads. What the page carries
   * already is not preloaded: `stylesInPage`, the route's stylesheets (`styles`); `dataInPage`,
   * the answers of its first calls (decision 185).
   */
  tags(
    pathname: string,
    search: URLSearchParams,
    {
      stylesInPage = false,
      dataInPage = false,
    }: { stylesInPage?: boolean; dataInPage?: boolean } = {},
  ): string {
    const route = routePreload(pathname);
    if (!route) return '';
    const { scripts, styles } = this.routeFiles(route);
    const data = dataInPage ? [] : (route.data?.(search) ?? []);
    return [
      ...scripts.map((file) => `<link rel="modulepreload" crossorigin href="/${file}" />`),
      ...(stylesInPage ? [] : styles).map(
        (file) => `<link rel="preload" as="style" crossorigin href="/${file}" />`,
      ),
      // `crossorigin` gives the preload the credentials mode of the app's `fetch`, so it is used.
      ...data.map(
        (url) => `<link rel="preload" as="fetch" crossorigin href="${escapeAttribute(url)}" />`,
      ),
    ].join('\n    ');
  }

  /** The stylesheets a path's screen loads beyond the page's own (built paths, `assets/…`). */
  styles(pathname: string): string[] {
    const route = routePreload(pathname);
    return route ? this.routeFiles(route).styles : [];
  }

  private routeFiles(route: RoutePreload): RouteFiles {
    const known = this.files.get(route);
    if (known) return known;
    const scripts = new Set<string>();
    const styles = new Set<string>();
    const manifest = this.manifest;
    if (manifest) {
      // What the page itself loads (the entry and its imports) is in it already.
      const inPage = new Set<string>();
      const pageStyles = new Set<string>();
      const visit = (key: string, into: Set<string>, css: Set<string> | undefined) => {
        const chunk = manifest[key];
        if (!chunk || into.has(chunk.file)) return;
        into.add(chunk.file);
        for (const file of chunk.css ?? []) css?.add(file);
        for (const imported of chunk.imports ?? []) visit(imported, into, css);
      };
      visit('index.html', inPage, pageStyles);
      const all = new Set<string>();
      for (const module of route.modules) visit(module, all, styles);
      for (const file of all) if (!inPage.has(file)) scripts.add(file);
      for (const file of pageStyles) styles.delete(file);
    }
    const files = { scripts: [...scripts], styles: [...styles] };
    this.files.set(route, files);
    return files;
  }
}

/** The page with the tags put at the end of its head. */
export const withHints = (html: string, tags: string): string =>
  tags ? html.replace('</head>', () => `  ${tags}\n  </head>`) : html;
