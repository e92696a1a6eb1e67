// Builds the client and the server when no build exists or a source is newer than the build,
// so `npm start` on a fresh clone (or after a pull) always serves the current code.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const outputs = [
  'dist/client/index.html',
  'dist/client/.prerendered/join.html',
  'dist/server/main.js',
].map((file) => path.join(root, file));
const inputs = ['src', 'package.json', 'vite.config.ts', 'tsconfig.json', 'tsconfig.server.json'];

function newestMtime(target) {
  const stats = fs.statSync(target);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of fs.readdirSync(target))
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

const built = outputs.every((file) => fs.existsSync(file));
const oldestOutput = built ? Math.min(...outputs.map((file) => fs.statSync(file).mtimeMs)) : 0;
const newestInput = Math.max(...inputs.map((input) => newestMtime(path.join(root, input))));

if (!built || newestInput > oldestOutput) {
  console.log(
    built ? 'Sources changed since the last build; building…' : 'No build yet; building…',
  );
  execSync('npm run build', { cwd: root, stdio: 'inherit' });
}
