import { type ChildProcess, spawn } from 'node:child_process';

/**
 * src/server/main.ts as a real process on `dataDir`, ready when /api/health answers. `env` adds
 * to (or overrides) the settings of a quiet embedded server with high write limits.
 */
export async function startServer(
  dataDir: string,
  port: number,
  env: Record<string, string> = {},
  options: { openFiles?: number; captureOutput?: boolean } = {},
): Promise<ChildProcess> {
  const command = [process.execPath, '--import', 'tsx', 'src/server/main.ts'];
  // With a lower open-file limit (`ulimit -n`), as on a small server.
  const [file = '', ...args] = options.openFiles
    ? ['sh', '-c', `ulimit -n ${options.openFiles} && exec "$@"`, 'sh', ...command]
    : command;
  const child = spawn(file, args, {
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      WRITE_RATE_LIMIT: '100000',
      WRITE_RATE_LIMIT_PER_ADDRESS: '100000',
      JOIN_PROOF_FREE_PER_MINUTE: '100000',
      // On a busy test machine a starved process would shed the writes this test needs.
      MAX_EVENT_LOOP_DELAY_MS: '0',
      ...env,
    },
    // Captured: its stdout and stderr are the child's `stdout` and `stderr` streams.
    stdio: options.captureOutput ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return child;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('The server did not start within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Stops a server process with `signal` and answers its exit code. */
export async function stopServer(
  child: ChildProcess,
  signal: NodeJS.Signals = 'SIGKILL',
): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  child.kill(signal);
  return exited;
}
