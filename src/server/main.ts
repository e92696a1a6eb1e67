import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLIENT_PATHS } from '../shared/routes.ts';
import { ConfigError, loadConfig } from './config.ts';

/** The oldest Node.js line the server runs on: supported, with `node:sqlite` (decision 096). */
const MIN_NODE_MAJOR = 24;

async function main(): Promise<void> {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < MIN_NODE_MAJOR) {
    console.error(
      `Confab runs on Node.js ${MIN_NODE_MAJOR} or newer; this is ${process.version}. ` +
        '`npm start` uses the Node.js that `npm install` brought (node_modules/.bin/node).',
    );
    process.exit(1);
  }
  // Loaded after the check: the app needs modules (node:sqlite) an old Node.js does not have.
  const { buildApp } = await import('./app.ts');
  let config;
  try {
    config = loadConfig(process.env, {
      clientDir: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../client'),
    });
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const app = await buildApp(config);

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    // Requests in flight finish (and their connections close with them); what is still running
    // after SHUTDOWN_TIMEOUT is cut off.
    const timer = setTimeout(() => {
      app.log.error('shutdown timed out; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    timer.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'error while shutting down');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    {
      event: config.eventName,
      database: app.deps.database.dialect,
      dataDir: config.dataDir,
      node: process.version,
    },
    `Confab is ready on Node.js ${process.version}`,
  );
  const { generatedPassword, username } = app.adminAuth.firstRun;
  if (generatedPassword) {
    // One plain line for the person at the terminal, whatever the log's format (decision 163).
    const origin =
      config.publicUrl ??
      `http://${config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host}:${config.port}`;
    process.stdout.write(
      `\nAdmin console: ${origin}${CLIENT_PATHS.admin}  username: ${username}  password: ${generatedPassword}\n` +
        'This password changes at every start; set ADMIN_PASSWORD (at least 8 characters) to keep one.\n\n',
    );
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
