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

// `npm run bench -- --only=sync`: the sync figures alone (about a minute; no browser).
if (process.argv.includes('--only=sync')) {
  const { runSyncBench } = await import('./sync.ts');
  await runSyncBench();
  process.exit(0);
}
// `npm run bench -- --app-only`: the chat app's figures alone (a few minutes instead of the whole run).
const appOnly = process.argv.includes('--app-only');
if (!appOnly) {
  // Measured before any engine module is loaded, so the heap figures can tell code from data.
  const { settledHeap } = await import('./heap.ts');
  const processStart = await settledHeap();
  const { runSuite } = await import('./suite.ts');
  await runSuite(processStart);
  const { runSyncBench } = await import('./sync.ts');
  await runSyncBench();
}
// The browser host's figures, in headless Chromium (bench/browser/).
const { runBrowserBench } = await import('./browser/browser-suite.ts');
await runBrowserBench(appOnly);
// Ends the run even if a library left a handle open (the database, a queue's timer).
process.exit(0);
