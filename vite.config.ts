import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import { type Plugin, defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

import { parse } from '@formatjs/icu-messageformat-parser';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Built files the server answers precompressed (the page is served from memory instead). */
const TEXT_FILE = /\.(js|mjs|css|svg|json|txt|webmanifest)$/;

/**
 * Writes `x.br` (brotli, best) and `x.gz` (gzip, best) beside every text file of the build, once,
 * so the server sends them as they are instead of compressing on every request.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'confab:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = await fs.readdir(outDir, { recursive: true });
      await Promise.all(
        files
          .filter((file) => TEXT_FILE.test(file) && !file.startsWith('.vite'))
          .map(async (file) => {
            const source = await fs.readFile(path.join(outDir, file));
            const [br, gz] = await Promise.all([
              brotli(source, {
                params: {
                  [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
                  [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length,
                },
              }),
              gzip(source, { level: zlib.constants.Z_BEST_COMPRESSION }),
            ]);
            await fs.writeFile(path.join(outDir, `${file}.br`), br);
            await fs.writeFile(path.join(outDir, `${file}.gz`), gz);
          }),
      );
    },
  };
}

/**
 * The message catalogs (`src/shared/i18n/catalogs/*.json`, imported with `?catalog`) compiled
 * to ICU MessageFormat's tree at build time (decision 246): the client formats them without the
 * parser, which is left out of it (the alias below).
 */
function messageCatalogs(): Plugin {
  return {
    name: 'confab:message-catalogs',
    enforce: 'pre',
    async load(id) {
      const [file = '', query] = id.split('?', 2);
      if (query !== 'catalog' || !file.endsWith('.json')) return null;
      this.addWatchFile(file);
      const messages = JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, string>;
      const compiled = Object.fromEntries(
        Object.entries(messages).map(([key, message]) => [key, parse(message)]),
      );
      // Parsed as JSON by the browser: quicker than the same object as script.
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(compiled))});`;
    },
  };
}

/** The parser stays out of what the browser loads: every message it formats comes compiled. */
const withoutMessageParser = {
  find: /^@formatjs\/icu-messageformat-parser$/,
  replacement: '@formatjs/icu-messageformat-parser/no-parser.js',
};

/**
 * What only opens on demand: the modals and dialogs, the forms and file pickers in them, and the
 * libraries only they use (forms, drop zone, floating positioning, Mantine's modal parts and its
 * ScrollArea, which modals scroll with). It loads, as one chunk, when the first of them opens
 * (decision 093).
 */
const OVERLAY_LIBRARIES =
  /node_modules[\\/](@mantine[\\/](form|dropzone)|react-dropzone|file-selector|attr-accept|@floating-ui|klona|fast-deep-equal)[\\/]|components[\\/](Modal|ModalBase|Combobox|Popover|Tooltip|FocusTrap|Overlay|LoadingOverlay)[\\/]|components[\\/]ScrollArea[\\/](?!utils[\\/])/;
const OVERLAY_APP_CODE =
  /src[\\/]client[\\/]features[\\/].*(-modal|-dialog|-file-picker|use-selected-files|use-memory-post|[\\/]upload|create-memory)\.tsx?$/;
const isOverlayCode = (id: string) => OVERLAY_LIBRARIES.test(id) || OVERLAY_APP_CODE.test(id);

const QR_CODE =
  /node_modules[\\/]qrcode-generator[\\/]|src[\\/]client[\\/]components[\\/]qr-code\.tsx$/;

/**
 * What only the poll owners' screens (the speaker's dashboard and the console) draw: the editor,
 * the controls and their calls, and the number field with its formatter (the console's settings
 * have one too). Shared by those two screens,
 * the `screens` group would put it in what every attendee's screen loads first; left out of it,
 * it goes in a chunk of its own that only those two screens load.
 */
const POLL_OWNER_CODE =
  /src[\\/]client[\\/]features[\\/]polls[\\/](owner-polls|poll-editor|poll-form|console-polls|api[\\/](create|patch|delete|reset|hide|remove)-)|node_modules[\\/](react-number-format[\\/]|@mantine[\\/]core[\\/]esm[\\/]components[\\/]NumberInput[\\/])/;

/** The polls' code: what the screens that show polls (a talk's, the Q&A room, /home) draw. */
const POLL_CODE = /src[\\/]client[\\/]features[\\/]polls[\\/]/;

const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? '3001'}`;

/** Dev-only: send browser navigations to the SPA even where the API has a route (GET /questions). */
const htmlBypass = (request: { method?: string; headers: { accept?: string } }) =>
  request.method === 'GET' && request.headers.accept?.includes('text/html')
    ? '/index.html'
    : undefined;

export default defineConfig(({ isSsrBuild }) => ({
  root: 'src/client',
  publicDir: 'public',
  // The prerender build (`--ssr`, decision 106) makes one module for Node: nothing to compress.
  plugins: isSsrBuild
    ? [react(), messageCatalogs()]
    : [
        react(),
        messageCatalogs(),
        // The service worker (decision 171): src/client/sw.ts, given the list of built files to
        // keep for an offline start. The manifest is the server's (made from the settings).
        VitePWA({
          strategies: 'injectManifest',
          srcDir: '.',
          filename: 'sw.ts',
          injectRegister: false,
          manifest: false,
          injectManifest: {
            // A classic script, as the page registers it: one self-contained file, built in
            // library mode. The default ("es") asks the bundler for `inlineDynamicImports`, an
            // option it has deprecated and warns about at every build.
            rollupFormat: 'iife',
            globPatterns: ['**/*.{js,css,svg,png,woff2}'],
            globIgnores: ['**/*.map', 'og-image.png', 'sw.js', '.prerendered/**'],
            // The app's largest chunk is a little over the default 2 MiB limit's reach.
            maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
          },
        }),
        precompress(),
      ],
  resolve: { alias: [withoutMessageParser] },
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    // The prerender's tree for Node needs none of the files the client serves.
    copyPublicDir: !isSsrBuild,
    sourcemap: true,
    target: 'es2022',
    // The page weight benchmark (bench/suites/client.ts) reads what each route loads from it.
    manifest: true,
    // Browsers without <link rel="modulepreload"> still load every chunk, one hop later.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // A few large chunks instead of dozens of small ones: on a phone's network each file
        // costs a round trip, and /home needed 31 (decision 093). Each module goes to the first
        // group, by priority, that takes it.
        codeSplitting: {
          groups: [
            // React changes far less often than the app: its own chunk stays cached across
            // releases (decision 070).
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/,
              priority: 40,
            },
            // Everything the entry imports statically: the join page, in one file.
            { name: 'index', tags: ['$initial'], priority: 30 },
            // The QR code's generator, which only the wall and the presenter view draw, kept out
            // of what every screen loads first.
            { name: 'qr-code', test: QR_CODE, priority: 20 },

            // What two or more screens (or a screen and the toasts) share: the first render of
            // any screen past the join page loads it, once.
            {
              name: 'screens',
              minShareCount: 2,
              priority: 10,
              test: (id: string) =>
                !isOverlayCode(id) && !POLL_OWNER_CODE.test(id) && !POLL_CODE.test(id),
            },
            // The polls' cards and results: only the screens that show polls load them.
            {
              name: 'polls',
              test: (id: string) => POLL_CODE.test(id) && !POLL_OWNER_CODE.test(id),
              priority: 5,
            },
            { name: 'overlays', test: isOverlayCode, priority: 0 },
          ],
        },
      },
    },
  },
  // The server loads the prerender's module to render pages (decision 185): the icons it draws
  // are bundled into it, not the icon package's thousands of modules.
  ssr: { noExternal: ['@tabler/icons-react', /^@mantine\//] },
  server: {
    port: Number(process.env.PORT ?? 5173),
    proxy: {
      '/api': apiTarget,
      '/media': apiTarget,
      '/socket.io': { target: apiTarget, ws: true },
      // The app's own logo, drawn by the server in the event's colour.
      '/logo/': apiTarget,
      '^/speakers$': { target: apiTarget, bypass: htmlBypass },
      '^/questions$': { target: apiTarget, bypass: htmlBypass },
    },
  },
}));
