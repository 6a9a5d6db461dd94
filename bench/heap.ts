// Heap figures after full collections (the bench runs under --expose-gc; see run.ts).

const gc = (globalThis as { gc?: () => void }).gc;

/** Heap used once garbage is collected, in bytes. */
export async function settledHeap(): Promise<number> {
  if (!gc) throw new Error('run with --expose-gc (bench/run.ts re-spawns itself with it)');
  for (let i = 0; i < 3; i++) {
    gc();
    // Let finalizers and pending promise jobs run between collections.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}

export const mib = (bytes: number): number => bytes / 2 ** 20;
