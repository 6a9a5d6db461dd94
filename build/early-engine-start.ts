import type { Plugin, ResolvedConfig } from 'vite';
import { ENGINE_WORKER_NAME } from '../src/browser-host/page/engine-start.ts';

/** The engine worker bundle Vite emits for `new SharedWorker(new URL('.../engine-worker.ts', ...))`. */
const ENGINE_WORKER_FILE = /^assets\/engine-worker-[\w-]+\.js$/;

/**
 * Starts the engine's SharedWorker from the built index.html's head, before the app's script
 * has downloaded: on a first visit the worker's start (download, module code, database) is on
 * the way to the first message list, and the app's script takes a few hundred milliseconds
 * under load. The app's own `new SharedWorker` with the same URL and name then connects to this
 * same instance; the options match the page's (src/browser-host/page/boot.ts) so that it may.
 * Builds only: `vite dev` serves the worker from source.
 */
export function earlyEngineStart(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'offline-realm:early-engine-start',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const page = bundle['index.html'];
        if (!page || page.type !== 'asset') return;
        const workers = Object.keys(bundle).filter((name) => ENGINE_WORKER_FILE.test(name));
        if (workers.length !== 1) throw new Error(`early engine start: expected one engine worker bundle, found ${workers.length}`);
        const url = JSON.stringify(`${config.base}${workers[0]}`);
        const options = JSON.stringify({ type: 'module', name: ENGINE_WORKER_NAME, extendedLifetime: true });
        // Where SharedWorker is missing the app elects a tab to run the engine instead (page/elected-engine.ts).
        const script = `<script>if (typeof SharedWorker === 'function') new SharedWorker(${url}, ${options});</script>`;
        const html = String(page.source);
        if (!html.includes('<head>')) throw new Error('early engine start: index.html has no <head>');
        // First in the head: an inline script after a stylesheet link would wait for the stylesheet.
        page.source = html.replace('<head>', `<head>\n    ${script}`);
      },
    },
  };
}
