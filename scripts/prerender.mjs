// Prerenders the first screens (decisions 106 and 173): builds the app's tree for Node
// (`vite build --ssr`), renders the join page and the shells of /home and the Q&A room with it,
// and writes the markup where the server reads it (dist/client/.prerendered/<name>.<lang>.html, never
// served as a file). The event's name and logo are left as slots the server fills in. The tree
// stays in dist/client/.prerendered/server: the server renders /home and the Q&A room with it,
// with their data (decision 185).
import { execSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const target = path.join(root, 'dist/client/.prerendered');
const outDir = path.join(target, 'server');
execSync(`npx vite build --ssr prerender.tsx --outDir ${outDir} --emptyOutDir --logLevel error`, {
  cwd: root,
  stdio: 'inherit',
});
const { renderPages } = await import(pathToFileURL(path.join(outDir, 'prerender.js')).href);

// `join.fr.html` and so on, one per language; `join.html` is the source language's (English),
// which the server falls back to.
for (const [language, pages] of Object.entries(renderPages())) {
  for (const [name, markup] of Object.entries(pages)) {
    await fs.writeFile(path.join(target, `${name}.${language}.html`), markup);
    if (language === 'en') await fs.writeFile(path.join(target, `${name}.html`), markup);
  }
}
