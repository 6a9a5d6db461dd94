/**
 * The demo realm import bench page (import.html, built only for `npm run bench`): offers the Node
 * driver `window.offlineRealmImportBench(samples)`, which has a worker import the demo realm's
 * archive (as the engine worker does on a first visit) into that many fresh databases.
 */
/** ms per sample: the whole import, its validation alone, the archive's flag rows written bare (indexes before / now). */
export interface DemoImportSamples {
  imports: number[];
  validation: number[];
  flagRowsBefore: number[];
  flagRowsNow: number[];
  flagRows: number;
}

declare global {
  interface Window {
    offlineRealmImportBench(samples: number): Promise<DemoImportSamples>;
  }
}

window.offlineRealmImportBench = (samples) => {
  // The options must stay a literal: the bundler reads them to build the worker.
  const worker = new Worker(new URL('./import-worker.ts', import.meta.url), { type: 'module', name: 'offline-realm-import-bench' });
  return new Promise((resolve, reject) => {
    worker.onmessage = ({ data }: MessageEvent<DemoImportSamples | { error: string }>) => {
      worker.terminate();
      if ('error' in data) reject(new Error(data.error));
      else resolve(data);
    };
    worker.postMessage(samples);
  });
};
