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
if (!appOnly) {
  // Measured before any engine module is loaded, so the heap figures can tell code from data.
  const { settledHeap } = await import('./heap.ts');
  const processStart = await settledHeap();
  const { runSuite } = await import('./suite.ts');
  await runSuite(processStart, parts);
  // The sync figures (a hub and replicas in this process; `--only=sync` alone: about a minute).
  const { measures } = await import('./parts.ts');
  if (measures(parts, 'sync')) {
    const { runSyncBench } = await import('./sync.ts');
    await runSyncBench();
  }
}
// The browser host's figures, in headless Chromium (bench/browser/); none when only the sync figures were asked for.
const nodeOnly = parts !== null && [...parts].every((part) => part === 'sync');
if (!process.argv.includes('--no-browser') && !nodeOnly) {
  const { runBrowserBench } = await import('./browser/browser-suite.ts');
  await runBrowserBench(parts);
}
// Ends the run even if a library left a handle open (the database, a queue's timer).
process.exit(0);
