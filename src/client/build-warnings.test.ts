import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

/** Runs the client's production build into `outDir` and answers everything it printed. */
function buildClient(outDir: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        path.join(root, 'node_modules/vite/bin/vite.js'),
        'build',
        '--outDir',
        outDir,
        '--emptyOutDir',
      ],
      {
        cwd: root,
        // The build that ships: the test runner's NODE_ENV=test would build React's development
        // copy into the chunks and size them as nothing ever served.
        env: { ...process.env, NODE_ENV: 'production', NO_COLOR: '1', FORCE_COLOR: '0' },
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('the client build', () => {
  let outDir = '';
  afterAll(async () => {
    if (outDir) await fs.rm(outDir, { recursive: true, force: true });
  });

  it('prints no warning', async () => {
    outDir = await fs.mkdtemp(path.join(os.tmpdir(), 'confab-build-'));
    const { code, output } = await buildClient(outDir);
    expect(code, output).toBe(0);
    const warnings = output
      .split('\n')
      .filter((line) => /warn|\(!\)|deprecat|did not pass/i.test(line));
    expect(warnings).toEqual([]);
    // A CSS `light-dark()` is lowered into `--lightningcss-light`/`-dark` variables that only a
    // `color-scheme` rule of the same stylesheet would define: the colour silently never applies.
    const assets = path.join(outDir, 'assets');
    const lowered: string[] = [];
    for (const name of await fs.readdir(assets)) {
      if (!name.endsWith('.css')) continue;
      if ((await fs.readFile(path.join(assets, name), 'utf8')).includes('--lightningcss-')) {
        lowered.push(name);
      }
    }
    expect(lowered, 'use the theme’s --confab-* colours instead of light-dark()').toEqual([]);
  }, 240_000);
});
