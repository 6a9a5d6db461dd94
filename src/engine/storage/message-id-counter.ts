import type { DBCore, Middleware } from 'dexie';

/** The `counters` row of message ids: the next id, one above every id a committed send took. */
export const MESSAGE_ID_COUNTER = 'message';

/**
 * The next message id, held by the engine's database instance so a send takes its id without
 * reading the counter. Seeded from the `counters` row by the first send; dropped (to be seeded
 * again) by any write to that row but the sends' own, as a scenario load, an import or a
 * replica's resync make, and `counters.put` by anyone else.
 *
 * Ids are handed out synchronously, so two transactions of this engine never hold the same one,
 * whatever the order IndexedDB runs them in; an id taken by a send that is rolled back is
 * skipped, as upstream's may be. The row written back with each send (`addNewMessage`) is what
 * a new engine on the same database (a restart, a second engine in a test) seeds from. Another
 * engine writing the same database at the same time (a tab of its own without SharedWorker, an
 * old and a new worker during a deploy, the bench's own worker) holds a next id of its own: the
 * primary key refuses the second `add` of an id, and that send seeds again from storage.
 */
export class MessageIdCounter {
  #next: number | null = null;
  /** Bumped whenever the held id is dropped, so a seed read before that is not kept. */
  #generation = 0;
  /** The rows the sends themselves write back: a write of these does not drop the held id. */
  readonly #own = new WeakSet<object>();

  /** The next id if held, taken synchronously; else null. */
  take(): number | null {
    return this.#next === null ? null : this.#next++;
  }

  /** Holds at least `next` (never less than held): what was read from storage at `generation`. */
  seed(next: number, generation: number): void {
    if (generation === this.#generation) this.#next = Math.max(this.#next ?? 0, next);
  }

  get generation(): number {
    return this.#generation;
  }

  holds(): boolean {
    return this.#next !== null;
  }

  /** The row a send writes back: the held next id, which a write of it does not drop. */
  ownRow(): { name: string; next: number } {
    if (this.#next === null) throw new Error('no message id is held');
    const row = { name: MESSAGE_ID_COUNTER, next: this.#next };
    this.#own.add(row);
    return row;
  }

  isOwn(row: unknown): boolean {
    return typeof row === 'object' && row !== null && this.#own.has(row);
  }

  drop(): void {
    this.#next = null;
    this.#generation++;
  }
}

/**
 * Drops the held id when anything but a send writes the counter row: sees every write of this
 * database instance at the DBCore level (below Dexie's hooks, so watching costs no read).
 */
export function messageIdMiddleware(counter: MessageIdCounter): Middleware<DBCore> {
  return {
    stack: 'dbcore',
    name: 'MessageIdCounter',
    create: (down) => ({
      ...down,
      table: (name) => {
        const table = down.table(name);
        if (name !== 'counters') return table;
        return {
          ...table,
          mutate: (request) => {
            const touches =
              request.type === 'deleteRange' ||
              (request.type === 'delete' ? request.keys.includes(MESSAGE_ID_COUNTER) : request.values.some((row) => (row as { name?: unknown }).name === MESSAGE_ID_COUNTER && !counter.isOwn(row)));
            if (touches) counter.drop();
            return table.mutate(request);
          },
        };
      },
    }),
  };
}
