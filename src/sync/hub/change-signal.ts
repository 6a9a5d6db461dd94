import type { Clock } from '../../engine/clock/clock.ts';
import type { RealmDatabase } from '../../engine/storage/database.ts';

/**
 * Tells waiting replicas that the change feed grew: each committed transaction that appended a
 * change wakes every waiter once (after the commit, so what they pull next is there).
 */
export class ChangeSignal {
  readonly #clock: Clock;
  readonly #waiters = new Set<() => void>();

  constructor(db: RealmDatabase, clock: Clock) {
    this.#clock = clock;
    const committed = new WeakSet<object>();
    // Hooks must return undefined: a value would become a generated key.
    db.sync_changes.hook('creating', (_key, _row, tx) => {
      if (committed.has(tx)) return undefined;
      committed.add(tx);
      tx.on('complete', () => this.#wakeAll());
      return undefined;
    });
  }

  /** Resolves true on the next committed change, false after `ms` or once `signal` aborts. */
  next(ms: number, signal: AbortSignal): Promise<boolean> {
    return new Promise((resolve) => {
      const finish = (changed: boolean) => {
        this.#waiters.delete(wake);
        this.#clock.clearTimeout(timer);
        signal.removeEventListener('abort', abort);
        resolve(changed);
      };
      const wake = () => finish(true);
      const abort = () => finish(false);
      const timer = this.#clock.setTimeout(() => finish(false), ms);
      this.#waiters.add(wake);
      signal.addEventListener('abort', abort);
      if (signal.aborted) abort();
    });
  }

  #wakeAll(): void {
    for (const wake of [...this.#waiters]) wake();
  }
}
