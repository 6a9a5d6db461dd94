/**
 * The demo realm import bench page (import.html, built only for `npm run bench`): offers the Node
 * driver `window.offlineRealmImportBench(samples)`, which has a worker import the demo realm's
 * archive (as the engine worker does on a first visit) into that many fresh databases.
 */
declare global {
  interface Window {
    offlineRealmImportBench(samples: number): Promise<number[]>;
  }
}

window.offlineRealmImportBench = (samples) => {
  // The options must stay a literal: the bundler reads them to build the worker.
  const worker = new Worker(new URL('./import-worker.ts', import.meta.url), { type: 'module', name: 'offline-realm-import-bench' });
  return new Promise((resolve, reject) => {
    worker.onmessage = ({ data }: MessageEvent<{ ms: number[] } | { error: string }>) => {
      worker.terminate();
      if ('ms' in data) resolve(data.ms);
      else reject(new Error(data.error));
    };
    worker.postMessage(samples);
  });
};
