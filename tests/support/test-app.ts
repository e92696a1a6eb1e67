import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { type App, type BuildOptions, buildApp } from '../../src/server/app.ts';
import { type Config, loadConfig } from '../../src/server/config.ts';
import type { WatchRequest } from '../../src/shared/events.ts';
import { type TestS3, startTestS3 } from './s3.ts';
import { type TestSocket, watchingSocket } from './speakers.ts';

/** The databases every data-layer and API test runs against. */
export type TestDatabase = 'sqlite' | 'postgres';

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL is set. */
export const testDatabases: TestDatabase[] = process.env.TEST_DATABASE_URL
  ? ['sqlite', 'postgres']
  : ['sqlite'];

export interface TestApp {
  app: App;
  /** Base URL of the listening server, e.g. http://127.0.0.1:41234 */
  url: string;
  config: Config;
  dataDir: string;
  /** Every stored media key under `prefix`, whichever store the app uses. */
  storedMediaKeys(prefix?: string): Promise<string[]>;
  close(): Promise<void>;
}

export interface TestAppOptions extends BuildOptions {
  database?: TestDatabase;
  /**
   * Where media go: the data directory, or a fresh bucket on a local s3rver. Default: S3 with
   * PostgreSQL and disk with SQLite, the two combinations that matter (embedded, scaled out).
   */
  media?: 'disk' | 's3';
  env?: Record<string, string>;
  /**
   * A built client for the app to serve: its files by path (`index.html`, `assets/…`), written
   * to a temporary folder that `close` removes.
   */
  client?: Readonly<Record<string, string | Buffer>>;
}

/** A plain page, for an app whose tests do not look at it. */
export const PLAIN_PAGE =
  '<!doctype html><html><head><title>app</title></head><body></body></html>';

/** Writes a built client's files into a fresh temporary folder. */
async function writeClient(files: Readonly<Record<string, string | Buffer>>): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'confab-client-'));
  for (const [file, content] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await fs.writeFile(path.join(dir, file), content);
  }
  return dir;
}

/**
 * A real app listening on a free port, with its own temporary data directory and, on
 * PostgreSQL, its own fresh schema. `close` removes both.
 */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'confab-test-'));
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    HOST: '127.0.0.1',
    PORT: '0',
    // Tests share a busy machine; only the overload tests turn load shedding on.
    MAX_EVENT_LOOP_DELAY_MS: '0',
  };
  let dropSchema: (() => Promise<void>) | undefined;
  if (options.database === 'postgres') {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('TEST_DATABASE_URL is not set');
    const schema = `t_${path
      .basename(dataDir)
      .replace(/[^a-z0-9]/gi, '')
      .toLowerCase()}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    env.DATABASE_URL = url;
    env.DATABASE_SCHEMA = schema;
    env.DATABASE_POOL_SIZE = '4';
    env.SESSION_SECRET = 'test-session-secret-that-is-long-enough-1234';
    dropSchema = async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
    };
  }
  let s3: TestS3 | undefined;
  if ((options.media ?? (options.database === 'postgres' ? 's3' : 'disk')) === 's3') {
    s3 = await startTestS3();
    Object.assign(env, s3.env);
  }
  Object.assign(env, options.env);
  const clientDir = options.client ? await writeClient(options.client) : undefined;
  const config = loadConfig(env, { clientDir });
  const app = await buildApp(config, options);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('The test app is not listening');
  return {
    app,
    url: `http://127.0.0.1:${address.port}`,
    config,
    dataDir,
    storedMediaKeys: async (prefix = '') => {
      const keys: string[] = [];
      for await (const key of app.deps.media.list(prefix)) keys.push(key);
      return keys.sort();
    },
    close: async () => {
      await app.close();
      await s3?.close();
      await dropSchema?.();
      await fs.rm(dataDir, { recursive: true, force: true });
      if (clientDir) await fs.rm(clientDir, { recursive: true, force: true });
    },
  };
}

/**
 * One test app for the enclosing `describe`: started before its tests, closed after them. The
 * answer stands for the app once it runs (reading it before then is a mistake and throws).
 * `options` may be a function, for options known only when the tests start.
 */
export function useTestApp(options: TestAppOptions | (() => TestAppOptions) = {}): TestApp {
  let started: TestApp | undefined;
  beforeAll(async () => {
    started = await startTestApp(typeof options === 'function' ? options() : options);
  });
  afterAll(async () => {
    await started?.close();
    started = undefined;
  });
  return new Proxy({} as TestApp, {
    get: (_target, key) => {
      if (!started) throw new Error('The test app is used before it started or after it closed');
      return Reflect.get(started, key) as unknown;
    },
  });
}

/**
 * Sockets for the tests of the enclosing `describe`: the answer connects one to `app` in the
 * rooms given (none: it hears only what goes to everyone), and each is disconnected after its
 * test.
 */
export function useWatchingSockets(app: { readonly url: string }) {
  const sockets: TestSocket[] = [];
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.disconnect();
  });
  return async (rooms: WatchRequest[] = []): Promise<TestSocket> => {
    const socket = await watchingSocket(app.url, rooms);
    sockets.push(socket);
    return socket;
  };
}
