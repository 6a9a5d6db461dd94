import type { DBCoreTransaction } from 'dexie';

/**
 * The writes one table has seen, for a value held in memory that a write makes stale: a
 * generation bumped by every write (and again when its transaction ends), and the transactions
 * that wrote and have neither committed nor aborted. While one is open, nothing read now can be
 * trusted as committed state: it may hold rows that are rolled back.
 */
export class TableWrites {
  #generation = 0;
  readonly #open = new Set<DBCoreTransaction>();
  readonly #onChange: () => void;

  /** `onChange`: told at each bump, to drop what was held. */
  constructor(onChange: () => void) {
    this.#onChange = onChange;
  }

  /** The generation, if no writer is open: a read started now shows committed state of it. */
  settled(): number | null {
    return this.#open.size > 0 ? null : this.#generation;
  }

  /** `trans` wrote the table: what was held goes, and nothing is settled until it has ended. */
  writtenBy(trans: DBCoreTransaction): void {
    this.#bump();
    if (this.#open.has(trans)) return;
    this.#open.add(trans);
    const end = () => {
      if (this.#open.delete(trans)) this.#bump();
    };
    // IndexedDB's transactions and the SQLite store's are both event targets.
    const events = trans as unknown as EventTarget;
    events.addEventListener('complete', end);
    events.addEventListener('abort', end);
  }

  #bump(): void {
    this.#generation++;
    this.#onChange();
  }
}
