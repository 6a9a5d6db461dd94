/**
 * A SharedWorker that has gone away (every tab closed) leaves the Service Worker holding a port
 * whose messages vanish without any error or close event. So the engine holds a Web Lock named
 * after its own instance for as long as it lives, and the Service Worker checks that the lock is
 * still held before it trusts a port. The browser releases the lock when the worker dies.
 */

const LOCK_PREFIX = 'offline-realm-engine:';

/** Takes the lock for this engine instance and never lets it go; returns its name. */
export function holdEngineLock(locks: LockManager): string {
  const name = `${LOCK_PREFIX}${crypto.randomUUID()}`;
  void locks.request(name, () => new Promise<never>(() => {}));
  return name;
}

/** Whether the engine that holds `lockName` is still alive. */
export async function isEngineAlive(locks: LockManager, lockName: string): Promise<boolean> {
  const { held = [] } = await locks.query();
  return held.some((lock) => lock.name === lockName);
}
