import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'bench/**/*.test.ts'],
    // The client build's own check runs alone (`npm run test:build`): a production build beside
    // the system tests would starve their timing.
    exclude: [
      'node_modules',
      'dist',
      'tests/e2e',
      ...(process.env.CONFAB_BUILD_CHECK ? [] : ['src/client/build-warnings.test.ts']),
    ],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
