import type { DatabaseSync } from 'node:sqlite';
import type { DBCoreTransaction } from 'dexie';

type Mode = 'readonly' | 'readwrite';
type State = 'waiting' | 'active' | 'committed' | 'aborted';

/**
 * One Dexie transaction on the SQLite file, behaving as an IDBTransaction does for Dexie: it
 * starts when the scheduler lets it, every request runs synchronously on the connection, and it
 * commits by itself once a whole task has passed with no new request (IndexedDB's auto-commit,
 * which the engine relies on). A read-write one is one SQLite transaction: `COMMIT` (durable at
 * the file's `synchronous` level) happens before `complete` is fired, so Dexie acknowledges a
 * write only once it is on disk. Dexie and its cache layer read `mode`, `error`, the `on*`
 * handlers and the events; they also set their own fields (`mutatedParts`) on it.
 */
export class SqliteTransaction extends EventTarget implements DBCoreTransaction {
  readonly mode: Mode;
  readonly stores: ReadonlySet<string>;
  error: Error | null = null;
  oncomplete: ((event: Event) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  onabort: ((event: Event) => void) | null = null;
  #state: State = 'waiting';
  readonly #scheduler: TransactionScheduler;
  /** Requests made while waiting run when this settles (rejected if aborted first). */
  #whenStarted: { promise: Promise<void>; resolve: () => void; reject: (error: Error) => void } | null = null;
  /** Requests so far, and how many there were when the pending auto-commit check was queued. */
  #requests = 0;
  #requestsAtCheck = 0;
  #checkQueued = false;
  #commitRequested = false;

  constructor(scheduler: TransactionScheduler, stores: string[], mode: Mode) {
    super();
    this.#scheduler = scheduler;
    this.stores = new Set(stores);
    this.mode = mode;
  }

  get state(): State {
    return this.#state;
  }

  /**
   * Runs `request` on the connection once this transaction is active, as one IndexedDB request:
   * it keeps the transaction alive for one more task.
   */
  run<T>(store: string, request: () => T): Promise<T> {
    if (this.#state === 'waiting') {
      this.#whenStarted ??= deferred();
      return this.#whenStarted.promise.then(() => this.run(store, request));
    }
    try {
      return Promise.resolve(this.runNow(store, request));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** `run` for a transaction already active (cursor steps, which must answer synchronously). */
  runNow<T>(store: string, request: () => T): T {
    if (this.#state !== 'active' || this.#commitRequested) {
      throw new DOMException('The transaction has finished', 'TransactionInactiveError');
    }
    if (!this.stores.has(store)) throw new DOMException(`${store} is not in the transaction's scope`, 'NotFoundError');
    this.#requests++;
    this.#queueCheck();
    return request();
  }

  abort(): void {
    if (this.#state === 'committed' || this.#state === 'aborted') {
      throw new DOMException('The transaction has finished', 'InvalidStateError');
    }
    this.#abort(null);
  }

  /** IDBTransaction.commit(): no more requests; commits now (every request has already run). */
  commit(): void {
    if (this.#state === 'active') this.#commit();
    else if (this.#state === 'waiting') this.#commitRequested = true;
  }

  /** Called by the scheduler: takes the SQLite write lock for a read-write transaction. */
  start(sqlite: DatabaseSync): void {
    if (this.mode === 'readwrite') sqlite.exec('BEGIN IMMEDIATE');
    this.#state = 'active';
    this.#whenStarted?.resolve();
    if (this.#commitRequested) this.#commit();
    else this.#queueCheck();
  }

  #queueCheck(): void {
    if (this.#checkQueued) return;
    this.#checkQueued = true;
    this.#requestsAtCheck = this.#requests;
    // After every microtask of the current task: a request issued from a promise continuation
    // of the last one still counts as the same moment, as in IndexedDB.
    setImmediate(() => {
      this.#checkQueued = false;
      if (this.#state !== 'active') return;
      if (this.#requests !== this.#requestsAtCheck) this.#queueCheck();
      else this.#commit();
    });
  }

  #commit(): void {
    if (this.mode === 'readwrite') {
      try {
        this.#scheduler.sqlite.exec('COMMIT');
      } catch (error) {
        this.#abort(error instanceof Error ? error : new Error(String(error)));
        return;
      }
    }
    this.#state = 'committed';
    this.#scheduler.finished(this);
    this.#fire('complete', this.oncomplete);
  }

  #abort(error: Error | null): void {
    const wasActive = this.#state === 'active';
    this.#state = 'aborted';
    this.error = error;
    if (wasActive && this.mode === 'readwrite' && this.#scheduler.sqlite.isTransaction) {
      this.#scheduler.sqlite.exec('ROLLBACK');
    }
    this.#whenStarted?.reject(new DOMException('The transaction was aborted', 'AbortError'));
    this.#scheduler.finished(this);
    // Asynchronous, as IndexedDB fires it: Dexie's abort() caller finishes first.
    queueMicrotask(() => this.#fire('abort', this.onabort));
  }

  #fire(type: string, handler: ((event: Event) => void) | null): void {
    const event = new Event(type);
    this.dispatchEvent(event);
    handler?.call(this, event);
  }
}

/**
 * Which transactions may run, by IndexedDB's rule: one waits for every earlier unfinished one
 * whose scope overlaps its own unless both only read. Read-write transactions also wait for
 * every earlier read-write one, whatever its scope: the connection has one SQLite transaction.
 */
export class TransactionScheduler {
  readonly sqlite: DatabaseSync;
  readonly #unfinished: SqliteTransaction[] = [];
  #onIdle: (() => void) | null = null;

  constructor(sqlite: DatabaseSync) {
    this.sqlite = sqlite;
  }

  /** Transactions begun and not yet committed or aborted. */
  get inFlight(): number {
    return this.#unfinished.length;
  }

  /**
   * Calls `callback` once no read-write transaction is unfinished: now, or when the last one
   * finishes. Readers do not hold it up: a closed connection fails their next request.
   */
  whenWritesDone(callback: () => void): void {
    if (!this.#writing()) callback();
    else this.#onIdle = callback;
  }

  #writing(): boolean {
    return this.#unfinished.some((trans) => trans.mode === 'readwrite');
  }

  create(stores: string[], mode: Mode): SqliteTransaction {
    const trans = new SqliteTransaction(this, stores, mode);
    this.#unfinished.push(trans);
    if (this.#mayStart(trans, this.#unfinished.length - 1)) trans.start(this.sqlite);
    return trans;
  }

  finished(trans: SqliteTransaction): void {
    const at = this.#unfinished.indexOf(trans);
    if (at === -1) return;
    this.#unfinished.splice(at, 1);
    if (this.#onIdle && !this.#writing()) {
      const onIdle = this.#onIdle;
      this.#onIdle = null;
      onIdle();
      return;
    }
    // A copy: a transaction asked to commit before it started finishes inside `start`.
    for (const waiting of [...this.#unfinished]) {
      const position = this.#unfinished.indexOf(waiting);
      if (waiting.state === 'waiting' && position !== -1 && this.#mayStart(waiting, position)) waiting.start(this.sqlite);
    }
  }

  #mayStart(trans: SqliteTransaction, position: number): boolean {
    for (let i = 0; i < position; i++) {
      const earlier = this.#unfinished[i]!;
      if (trans.mode === 'readwrite' && earlier.mode === 'readwrite') return false;
      if (trans.mode === 'readonly' && earlier.mode === 'readonly') continue;
      for (const store of trans.stores) if (earlier.stores.has(store)) return false;
    }
    return true;
  }
}

function deferred(): { promise: Promise<void>; resolve: () => void; reject: (error: Error) => void } {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Nobody may be waiting when it is rejected (an aborted transaction that had no request).
  promise.catch(() => {});
  return { promise, resolve, reject };
}
