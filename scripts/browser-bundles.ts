import { build, type Plugin } from 'vite';
import { noAppShell } from '../build/app-shell-manifest.ts';
import { emojiTable } from '../build/emoji-table.ts';
import { ENGINE_WORKER_FILE, SERVICE_WORKER_FILE } from '../src/browser-host/protocol/worker-files.ts';

/** The `offline-realm/browser` entry's bundle, beside the worker files. */
export const BROWSER_ENTRY_FILE = 'index.js';

/**
 * The package's browser files, each one self-contained ES module (no imports left, so a page
 * loads them without a bundler), built with the app's Vite: the Service Worker (no app shell to
 * cache: it runs in another project's site), the engine worker (with the emoji table trimmed,
 * as in the app) and the `offline-realm/browser` entry. Not minified, and the worker files
 * without source maps: they are copied alone into another project, and read there as they are.
 */
export async function buildBrowserBundles(root: string, outDir: string): Promise<void> {
  const bundles: { entry: string; file: string; plugins: Plugin[]; sourcemap: boolean }[] = [
    { entry: 'worker/service-worker.ts', file: SERVICE_WORKER_FILE, plugins: [noAppShell()], sourcemap: false },
    { entry: 'worker/engine-worker.ts', file: ENGINE_WORKER_FILE, plugins: [emojiTable()], sourcemap: false },
    { entry: 'src/browser-host/page/start-realm.ts', file: BROWSER_ENTRY_FILE, plugins: [], sourcemap: true },
  ];
  for (const { entry, file, plugins, sourcemap } of bundles) {
    await build({
      root,
      configFile: false,
      publicDir: false,
      logLevel: 'warn',
      plugins,
      build: {
        outDir,
        emptyOutDir: false,
        sourcemap,
        minify: false,
        // The engine is ~1.5 MB: expected, not a warning.
        chunkSizeWarningLimit: 4096,
        rolldownOptions: {
          input: `${root}${entry}`,
          // Vite keeps an entry's exports only for a library; this entry is one.
          preserveEntrySignatures: 'strict',
          output: { format: 'es', entryFileNames: file, codeSplitting: false },
        },
      },
    });
  }
}
