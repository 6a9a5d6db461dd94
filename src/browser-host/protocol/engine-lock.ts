import { randomUuid } from '../../engine/crypto/portable-crypto.ts';

/**
 * A SharedWorker that has gone away (every tab closed) leaves the Service Worker holding a port
 * whose messages vanish without any error or close event. So the engine holds a Web Lock named
 * after its own instance for as long as it lives, and the Service Worker checks that the lock is
 * still held before it trusts a port. The browser releases the lock when the worker dies.
 */

const LOCK_PREFIX = 'offline-realm-engine:';

/**
 * Takes the lock for this engine instance and never lets it go; resolves with its name once the
 * lock is held, so that no one checks (or waits on) the lock before the engine has it. Outside a
 * secure context there are no Web Locks, and no Service Worker either to check them: the name
 * alone is answered.
 */
export function holdEngineLock(locks: LockManager | undefined): Promise<string> {
  const name = `${LOCK_PREFIX}${randomUuid()}`;
  if (!locks) return Promise.resolve(name);
  return new Promise((resolve) => {
    void locks.request(name, () => {
      resolve(name);
      return new Promise<never>(() => {});
    });
  });
}

/** Whether the engine that holds `lockName` is still alive. */
export async function isEngineAlive(locks: LockManager, lockName: string): Promise<boolean> {
  const { held = [] } = await locks.query();
  // Only the engine holds it exclusively; `whenEngineDies` holds it shared for a moment after.
  return held.some((lock) => lock.name === lockName && lock.mode === 'exclusive');
}

/**
 * Resolves when the engine that holds `lockName` dies: without SharedWorker that happens while
 * other tabs live (the leader tab closed), and requests pending on it must not wait for a timeout.
 */
export async function whenEngineDies(locks: LockManager, lockName: string): Promise<void> {
  await locks.request(lockName, { mode: 'shared' }, () => undefined);
}
