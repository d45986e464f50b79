import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'contracts', root: './packages/contracts', include: ['src/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'server',
          root: './apps/server',
          include: ['src/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // each test file builds its own server on a fresh data dir / schema
          fileParallelism: true,
          // files share a worker's module cache: importing the whole server once per worker instead of once per file
          // took the suite from 382 s to 122 s (the files keep no state in modules; each builds its own Kelvin)
          isolate: false,
        },
      },
      './apps/web/vitest.config.ts',
    ],
  },
});
