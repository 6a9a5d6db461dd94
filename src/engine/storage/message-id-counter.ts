import type { DBCore, DBCoreTransaction, Middleware } from 'dexie';
import { TableWrites } from './table-writes.ts';
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
  /** Writes of the row but the sends' own: each drops the held id. */
  readonly #writes = new TableWrites(() => (this.#next = null));
  /** The rows the sends themselves write back: a write of these does not drop the held id. */
  readonly #own = new WeakSet<object>();

  /** Bumped whenever the held id is dropped, so a seed read before that is not kept; null while a writer of the row is open. */
  get generation(): number | null {
    return this.#writes.settled();
  }

  /** The next id if held, taken; else null. */
  take(): number | null {
    return this.#next === null ? null : this.#next++;
  }

  /**
   * Holds at least `stored`, read from storage at `generation`, and takes the next id; null if
   * that read may be stale (the row was written since, or its writer is still open).
   */
  seedAndTake(stored: number, generation: number | null): number | null {
    if (generation === null || generation !== this.#writes.settled()) return null;
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
    this.#writes.writtenBy(trans);
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
