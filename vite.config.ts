import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';
import { appShellManifest } from './build/app-shell-manifest.ts';
import { earlyEngineStart } from './build/early-engine-start.ts';
import { emojiTable } from './build/emoji-table.ts';
import { katexWoff2Only } from './build/katex-woff2-only.ts';
import { prebuiltRealms } from './build/prebuilt-realms.ts';
import { CHROMIUM, CHROMIUM_ARGS } from './scripts/chromium-flags.ts';
import { tabCommands } from './test/browser/tab-commands.ts';

// The chat app (index.html), the server console (console.html) plus the Service Worker, built to /sw.js so that its scope is the whole
// site; `vite preview` serves the build (npm start). Tests: the engine in Node, and the browser
// host end to end in real Chromium against a build served by `vite preview`.
export default defineConfig({
  // Lists the built app in /sw.js for precaching (src/browser-host/service-worker/app-shell.ts); writes each scenario's
  // realm beside it for a fast first visit (build/prebuilt-realms.ts); starts the engine worker from index.html's head
  // (build/early-engine-start.ts), before the manifest digests the page; ships KaTeX's WOFF2 fonts only
  // (build/katex-woff2-only.ts).
  plugins: [katexWoff2Only(), prebuiltRealms(), earlyEngineStart(), appShellManifest()],
  build: {
    rolldownOptions: {
      input: { index: 'index.html', console: 'console.html', sw: 'worker/service-worker.ts' },
      output: {
        entryFileNames: (chunk) => (chunk.name === 'sw' ? 'sw.js' : 'assets/[name]-[hash].js'),
      },
    },
  },
  // The engine runs in the worker bundle: its emoji table is trimmed there.
  worker: { format: 'es', plugins: () => [emojiTable()] },
  // The chat app's JSX is Preact's.
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  // A module Service Worker served from source (vite dev) needs leave to control the whole site.
  server: { host: '127.0.0.1', port: 5173, headers: { 'Service-Worker-Allowed': '/' } },
  preview: { host: '127.0.0.1', port: 5173, strictPort: true },
  test: {
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['test/**/*.test.ts'],
          exclude: ['test/browser/**', 'test/app/**'],
          // The coverage recorder is inert unless API_COVERAGE_LOG is set (npm run api-coverage).
          setupFiles: ['test/support/api-coverage-recorder.ts', 'test/support/user-message-places.ts'],
          testTimeout: 20_000,
          // One module scope per worker, not per file: loading the engine's modules again for
          // each of ~140 files cost about a quarter of this project's time. A test file must
          // therefore put back any global it changes (test/node-host/zulip-js.test.ts does).
          isolate: false,
        },
      },
      {
        // The chat app driven as a person would, by Playwright from Node, against the built app.
        test: {
          name: 'app',
          environment: 'node',
          include: ['test/app/**/*.test.ts'],
          globalSetup: ['test/browser/preview-server.ts'],
          testTimeout: 90_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          globalSetup: ['test/browser/preview-server.ts'],
          testTimeout: 30_000,
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({ launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_ARGS } }),
            instances: [{ browser: 'chromium' }],
            // The tests drive tabs of their own; a picture of the runner's frame shows nothing.
            screenshotFailures: false,
            commands: tabCommands,
          },
        },
      },
    ],
  },
});
