// The app's build (vite.config.ts) plus the bench page, for `npm run bench` only: the app's own
// build, whose cold start the bench also measures, is built from vite.config.ts unchanged.
import { defineConfig, mergeConfig } from 'vite';
import appConfig from '../../vite.config.ts';

export default mergeConfig(
  appConfig,
  defineConfig({
    build: { rolldownOptions: { input: { bench: 'bench/browser/bench.html', import: 'bench/browser/import.html' } } },
  }),
);
