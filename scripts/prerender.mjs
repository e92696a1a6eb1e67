// Prerenders the join page (decision 106): builds the app's tree for Node (`vite build --ssr`),
// renders the join page with it, and writes the markup where the server reads it
// (dist/client/.prerendered/join.html, never served as a file). The event's name is left as a
// slot the server fills in.
import { execSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const outDir = path.join(root, 'dist/prerender');
execSync(`npx vite build --ssr prerender.tsx --outDir ${outDir} --emptyOutDir --logLevel warn`, {
  cwd: root,
  stdio: 'inherit',
});
const { renderJoinPage } = await import(pathToFileURL(path.join(outDir, 'prerender.js')).href);
const target = path.join(root, 'dist/client/.prerendered');
await fs.mkdir(target, { recursive: true });
await fs.writeFile(path.join(target, 'join.html'), renderJoinPage());
await fs.rm(outDir, { recursive: true, force: true });
