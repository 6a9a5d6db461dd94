// `npm run bench`: the engine's performance figures on a 100k-message realm, then the browser host's (docs/PERFORMANCE.md).
// Heap figures need `global.gc`, so without --expose-gc the script runs itself again with it.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

if (typeof (globalThis as { gc?: unknown }).gc !== 'function') {
  const child = spawnSync(process.execPath, ['--expose-gc', ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  process.exit(child.status ?? 1);
}

// `npm run bench -- --app-only`: the chat app's figures alone (a few minutes instead of the whole run).
const appOnly = process.argv.includes('--app-only');
// `--only=topic-page,send`: those figures alone, in both tables (bench/parts.ts); `--no-browser`: the Node table alone.
const { onlyParts } = await import('./parts.ts');
const parts = appOnly ? new Set(['app'] as const) : onlyParts(process.argv);
// The sync figures build realms of their own: `--only=sync` needs neither the shared 100k realm nor a browser.
const syncOnly = parts !== null && [...parts].every((part) => part === 'sync');
if (!appOnly && !syncOnly) {
  // Measured before any engine module is loaded, so the heap figures can tell code from data.
  const { settledHeap } = await import('./heap.ts');
  const processStart = await settledHeap();
  const { runSuite } = await import('./suite.ts');
  await runSuite(processStart, parts);
}
// The sync figures: a hub and replicas in this process (`--only=sync` alone: about a minute).
if (!appOnly && (parts === null || parts.has('sync'))) {
  const { runSyncBench } = await import('./sync.ts');
  await runSyncBench();
}
// The browser host's figures, in headless Chromium (bench/browser/).
if (!process.argv.includes('--no-browser') && !syncOnly) {
  const { runBrowserBench } = await import('./browser/browser-suite.ts');
  await runBrowserBench(parts);
}
// Ends the run even if a library left a handle open (the database, a queue's timer).
process.exit(0);
