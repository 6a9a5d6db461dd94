import type { DBCore, DBCoreTransaction, Middleware } from 'dexie';
import { tableWriteWatch } from './table-write-watch.ts';

/** The `counters` row of message ids: the next id, one above every id a committed send took. */
export const MESSAGE_ID_COUNTER = 'message';

/**
 * The next message id, held by the engine's database instance so a send takes its id without
 * reading the counter. Seeded from the `counters` row by the first send; dropped by any write to
 * that row but the sends' own (a scenario load, an import, a replica's resync, `counters.put` by
 * anyone else), and not held again until that writer's transaction has ended: a seed read while
 * it is pending may predate its write.
 *
 * Ids are handed out synchronously, so two transactions of this engine never hold the same one,
 * whatever the order IndexedDB runs them in; an id taken by a send that is rolled back is
 * skipped, as upstream's may be. The row written back with each send (`addNewMessage`) is what
 * a new engine on the same database (a restart, a second engine in a test) seeds from. Another
 * engine writing the same database at the same time (a tab of its own without SharedWorker, an
 * old and a new worker during a deploy, the bench's own worker) holds a next id of its own: the
 * primary key refuses the second `add` of an id, and that send takes one from storage.
 */
export class MessageIdCounter {
  #next: number | null = null;
  /** Bumped whenever the held id is dropped, so a seed read before that is not kept. */
  #generation = 0;
  /** Transactions that wrote the row (not a send's write-back) and have not ended. */
  readonly #openWriters = new Set<DBCoreTransaction>();
  /** The rows the sends themselves write back: a write of these does not drop the held id. */
  readonly #own = new WeakSet<object>();

  get generation(): number {
    return this.#generation;
  }

  /** The next id if held, taken; else null. */
  take(): number | null {
    return this.#next === null ? null : this.#next++;
  }

  /**
   * Holds at least `stored`, read from storage at `generation`, and takes the next id; null if
   * that read may be stale (the row was written since, or its writer is still open).
   */
  seedAndTake(stored: number, generation: number): number | null {
    if (generation !== this.#generation || this.#openWriters.size > 0) return null;
    this.#next = Math.max(this.#next ?? 0, stored);
    return this.#next++;
  }

  /** After a send added message `id`: the next id, if held, made to pass it; else null. */
  passedBy(id: number): number | null {
    if (this.#next === null) return null;
    this.#next = Math.max(this.#next, id + 1);
    return this.#next;
  }

  /** The counter row a send writes back, which does not drop the held id. */
  ownRow(next: number): { name: string; next: number } {
    const row = { name: MESSAGE_ID_COUNTER, next };
    this.#own.add(row);
    return row;
  }

  isOwn(row: unknown): boolean {
    return typeof row === 'object' && row !== null && this.#own.has(row);
  }

  /** The row was written by `trans`: nothing is held until it has ended. */
  writtenBy(trans: DBCoreTransaction): void {
    this.#drop();
    if (this.#openWriters.has(trans)) return;
    this.#openWriters.add(trans);
    const end = () => {
      if (this.#openWriters.delete(trans)) this.#drop();
    };
    // IndexedDB's transactions and the SQLite store's are both event targets.
    const events = trans as unknown as EventTarget;
    events.addEventListener('complete', end);
    events.addEventListener('abort', end);
  }

  #drop(): void {
    this.#next = null;
    this.#generation++;
  }
}

/**
 * Tells the counter of every write of its row but the sends' own: sees every write of this
 * database instance at the DBCore level (below Dexie's hooks, so watching costs no read).
 */
export function messageIdMiddleware(counter: MessageIdCounter): Middleware<DBCore> {
  return tableWriteWatch('MessageIdCounter', 'counters', (request) => {
    const writesRow =
      request.type === 'deleteRange' ||
      (request.type === 'delete'
        ? request.keys.includes(MESSAGE_ID_COUNTER)
        : request.values.some((row) => (row as { name?: unknown }).name === MESSAGE_ID_COUNTER && !counter.isOwn(row)));
    if (writesRow) counter.writtenBy(request.trans);
  });
}
