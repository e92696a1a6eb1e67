import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../tests/support/free-port.ts';
import { startServer, stopServer } from '../../../tests/support/server-process.ts';

/**
 * The password generated when ADMIN_PASSWORD is unset is for the person at the terminal: it is
 * printed on one plain line, never inside a JSON log line (log collectors keep those).
 */
describe('the generated admin password in the server’s output', () => {
  let dataDir: string;
  let server: ChildProcess;
  let output = '';
  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'confab-password-log-'));
    // No ADMIN_PASSWORD; warn level, the level the notice about it is logged at.
    server = await startServer(dataDir, await freePort(), {}, { captureOutput: true });
    server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  });
  afterAll(async () => {
    await stopServer(server, 'SIGTERM');
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('is on the plain line only; the JSON line says one was generated, without it', async () => {
    await expect.poll(() => output.includes('Admin console:'), { timeout: 20_000 }).toBe(true);
    const lines = output.split('\n').filter((line) => line.trim() !== '');
    const password = /password: (\S+)$/.exec(
      lines.find((line) => line.startsWith('Admin console:')) ?? '',
    )?.[1];
    expect(password).toMatch(/^[\w-]{24}$/);

    const json = lines.filter((line) => line.startsWith('{'));
    const notice = json.find((line) => line.includes('ADMIN_PASSWORD is not set'));
    expect(notice, 'the JSON notice that a password was generated').toBeDefined();
    for (const line of json) expect(line).not.toContain(password);
    // The plain line is the only one that carries it.
    expect(lines.filter((line) => line.includes(password ?? '')).length).toBe(1);
  });
});
