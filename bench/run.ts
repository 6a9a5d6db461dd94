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
const { onlyParts, measures, NODE_ONLY_PARTS, SUITE_PARTS } = await import('./parts.ts');
const parts = appOnly ? new Set(['app'] as const) : onlyParts(process.argv);
if (!appOnly) {
  // The 100k-message realm is built only for the figures measured on it.
  if (SUITE_PARTS.some((part) => measures(parts, part))) {
    // Measured before any engine module is loaded, so the heap figures can tell code from data.
    const { settledHeap } = await import('./heap.ts');
    const processStart = await settledHeap();
    const { runSuite } = await import('./suite.ts');
    await runSuite(processStart, parts);
  }
  // The sync figures (a hub and replicas in this process; `--only=sync` alone: about a minute;
  // `--only=sync-latency`: the latency figure alone, a few seconds).
  if (measures(parts, 'sync') || parts?.has('sync-latency')) {
    const { runSyncBench } = await import('./sync.ts');
    await runSyncBench({ latencyOnly: !measures(parts, 'sync') });
  }
  // The Node host's HTTP throughput against bare node:http (`--only=http`: about 30 s).
  if (measures(parts, 'http')) {
    const { runHttpBench } = await import('./http.ts');
    await runHttpBench();
  }
  // Send, topic page, /register and unread counts at each realm size (`--only=scale`).
  if (measures(parts, 'scale')) {
    const { runScaleBench } = await import('./scale.ts');
    await runScaleBench(process.argv);
  }
}
// The browser host's figures, in headless Chromium (bench/browser/); none when only Node-only figures were asked for.
const nodeOnly = parts !== null && [...parts].every((part) => NODE_ONLY_PARTS.includes(part));
if (!process.argv.includes('--no-browser') && !nodeOnly) {
  const { runBrowserBench } = await import('./browser/browser-suite.ts');
  await runBrowserBench(parts);
}
// Ends the run even if a library left a handle open (the database, a queue's timer).
process.exit(0);
