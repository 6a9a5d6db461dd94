// The app's build (vite.config.ts) plus the bench pages, for `npm run bench` only: the app's own
// build, whose cold start the bench also measures, is built from vite.config.ts unchanged.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { defineConfig, mergeConfig, type Plugin } from 'vite';
import appConfig from '../../vite.config.ts';

/** Built to the site root, so that its registration may take any scope (relay-peers.ts). */
const FLOOR_SW = 'bench-floor-sw';
const RELAY_FLOOR_SW = 'bench-relay-floor-sw';
/** The Service Workers built to the site root under their own names. */
const ROOT_SCRIPTS = new Set(['sw', FLOOR_SW, RELAY_FLOOR_SW]);

export default mergeConfig(
  appConfig,
  defineConfig({
    plugins: [mswWorkerScript()],
    build: {
      rolldownOptions: {
        input: {
          bench: 'bench/browser/bench.html',
          import: 'bench/browser/import.html',
          'floor-frame': 'bench/browser/floor-frame.html',
          'msw-frame': 'bench/browser/msw-frame.html',
          'relay-floor-frame': 'bench/browser/relay-floor-frame.html',
          [FLOOR_SW]: 'bench/browser/floor-service-worker.ts',
          [RELAY_FLOOR_SW]: 'bench/browser/relay-floor-service-worker.ts',
        },
        output: {
          // The app's names (vite.config.ts) and the floors' Service Workers'.
          entryFileNames: (chunk: { name: string }) => (ROOT_SCRIPTS.has(chunk.name) ? `${chunk.name}.js` : 'assets/[name]-[hash].js'),
        },
      },
    },
  }),
);

/**
 * MSW's worker script, written into the build by `msw init` as MSW's users do (into their public
 * folder), so that the bench runs the installed MSW's own worker.
 */
function mswWorkerScript(): Plugin {
  let outDir = '';
  return {
    name: 'bench-msw-worker-script',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async closeBundle() {
      await promisify(execFile)('node_modules/.bin/msw', ['init', outDir, '--no-save']);
    },
  };
}
