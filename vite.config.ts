import { defineConfig } from 'vitest/config';

// Node tests for the engine; the browser project joins with the browser-host work.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['test/**/*.test.ts'],
          exclude: ['test/browser/**'],
          testTimeout: 20_000,
        },
      },
    ],
  },
});
