import fs from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * The server's tests that start no app and no server: pure functions and small classes. They
 * run with the client's and the shared code's tests in `unit`.
 */
const SERVER_UNIT = [
  'address-key',
  'batches',
  'blocked-words',
  'admin-auth',
  'config',
  'critical-css',
  'csv-cell',
  'disk-media-store',
  'errors',
  'ffmpeg',
  'list-cache',
  'one-per',
  'policies',
  'poll-pace',
  'poll-answers',
  'reaction-sums',
  'route-hints',
  'schedule-parse',
  'speaker-username',
  'video-metadata',
  'video-queue',
];

/**
 * Whole processes, load, timing and faults: each takes seconds, and what it measures (a
 * timeout, a queue's wait, a process's exit) needs the machine's cores to itself.
 */
const SYSTEM = [
  'animated-images',
  'concurrent-uploads',
  'connection-limits',
  'crash-consistency',
  'database-outage',
  'faults',
  'generated-password-log',
  'load-shedding',
  'main',
  'push-delivery',
  'rolling-deploy',
  'scale-out',
  'shutdown',
  'slow-clients',
  'storage-faults',
  'venue',
  'video-logs',
];

/** A listed test is found by its file name wherever it sits under src/server. */
const serverTests = (names: readonly string[]) =>
  names.map((name) => `src/server/**/${name}.test.ts`);

// A name that no file has would leave the lists untrue: fail here rather than run a test in
// the wrong project.
const serverTestFiles = new Set(
  fs
    .readdirSync(path.join(import.meta.dirname, 'src/server'), { recursive: true })
    .map((file) => path.basename(String(file))),
);
const unknown = [...SERVER_UNIT, ...SYSTEM].filter(
  (name) => !serverTestFiles.has(`${name}.test.ts`),
);
if (unknown.length > 0) {
  throw new Error(
    `vitest.config.ts names tests that no file under src/server has: ${unknown.join(', ')}`,
  );
}

/** The client's production build, checked alone (`npm run test:build`). */
const BUILD_CHECK = 'src/client/build-warnings.test.ts';

export default defineConfig({
  test: {
    exclude: ['node_modules', 'dist', 'tests/e2e'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // `vitest run` runs the projects one after another in `groupOrder`, the fast ones first
    // (from 1: a project of order 0 on one worker would be moved to the end).
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            'src/client/**/*.test.{ts,tsx}',
            'src/shared/**/*.test.ts',
            // The import graph of all of src.
            'src/*.test.ts',
            ...serverTests(SERVER_UNIT),
          ],
          exclude: ['node_modules', 'dist', BUILD_CHECK],
          maxWorkers: '100%',
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'api',
          include: ['src/server/**/*.test.ts', 'bench/**/*.test.ts'],
          exclude: ['node_modules', 'dist', ...serverTests(SERVER_UNIT), ...serverTests(SYSTEM)],
          // Every core (Vitest's default leaves one free): each app mostly waits on its sockets
          // and database, and two at a time took 155 s instead of 276 s on two busy cores.
          maxWorkers: '100%',
          sequence: { groupOrder: 2 },
        },
      },
      {
        extends: true,
        test: {
          name: 'system',
          include: serverTests(SYSTEM),
          // One at a time, whatever the machine: a neighbour's load would stretch the timeouts
          // and waits these tests measure.
          maxWorkers: 1,
          sequence: { groupOrder: 3 },
        },
      },
      // A production build beside other tests would starve their timing: it runs only when
      // asked for (`npm run test:build`).
      ...(process.env.CONFAB_BUILD_CHECK
        ? [
            {
              extends: true,
              test: { name: 'build', include: [BUILD_CHECK], sequence: { groupOrder: 4 } },
            },
          ]
        : []),
    ],
  },
});
