import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';

const require = createRequire(import.meta.url);

/**
 * The browser of the tests, the Lighthouse bench and CI: `CHROME_PATH` when set, else the
 * Chromium that `@sparticuz/chromium` (a pinned dev dependency) ships inside its package,
 * unpacked once into `node_modules/.cache` beside it (about 3 s, 200 MB). Nothing is
 * downloaded and nothing is needed from the system (decision 097).
 */
export async function chromiumPath(): Promise<string> {
  if (process.env.CHROME_PATH) return process.env.CHROME_PATH;
  // The package exports only its entry (build/index.js); its folder is the one above.
  const packageDir = path.resolve(path.dirname(require.resolve('@sparticuz/chromium')), '..');
  const { version } = JSON.parse(
    fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8'),
  ) as { version: string };
  const folder = path.resolve(packageDir, `../../.cache/chromium-${version}`);
  const binary = path.join(folder, 'chromium');
  if (fs.existsSync(binary)) return binary;
  // Unpacked under a name of its own, then renamed: a browser started by another process at
  // the same time never sees half a file.
  fs.mkdirSync(folder, { recursive: true });
  const partial = `${binary}.${process.pid}.partial`;
  await pipeline(
    fs.createReadStream(path.join(packageDir, 'bin/chromium.br')),
    zlib.createBrotliDecompress(),
    fs.createWriteStream(partial, { mode: 0o755 }),
  );
  fs.renameSync(partial, binary);
  return binary;
}

/**
 * Flags for a headless Chromium on a machine without a GPU or a network: no sandbox (CI runs
 * as root), no background calls to Google's services, no GPU.
 */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];
