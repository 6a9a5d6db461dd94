import type { DBCoreCursor } from 'dexie';
import { encodeBound } from './index-source.ts';
import type { ScanRow, ScanStart } from './index-scan.ts';
import { decodeKey } from './key-codec.ts';
import type { SqliteTransaction } from './sqlite-transaction.ts';
import { decodeValue } from './value-codec.ts';

/** Rows fetched per SELECT: small first (most walks stop early), growing for long walks. */
const FIRST_BATCH = 16;
const LARGEST_BATCH = 1024;

interface CursorSource {
  table: string;
  reverse: boolean;
  unique: boolean;
  /** The next rows of the walk from `start` (from its beginning when null). */
  fetch(start: ScanStart | null, limit: number): ScanRow[];
  /** Changes whenever the table is written, so a walk never returns rows it read before a write. */
  generation(): number;
}

type Move = { kind: 'continue'; key?: unknown } | { kind: 'continuePrimaryKey'; key: unknown; primaryKey: unknown } | { kind: 'advance'; count: number };

interface Iteration {
  onNext: () => void;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * A DBCore cursor over batches of one index walk. Dexie drives it through `start`: the callback
 * runs for the current entry and asks for the next move (`continue`, `advance`...); the moves
 * asked for during a callback run in a loop, so a long walk does not grow the stack.
 */
export class SqliteCursor implements DBCoreCursor {
  readonly trans: SqliteTransaction;
  done = false;
  readonly #source: CursorSource;
  #batch: ScanRow[];
  #at = 0;
  #batchSize = FIRST_BATCH;
  /** The batch holds the walk's last entry: nothing beyond it to fetch. */
  #exhausted: boolean;
  #generation: number;
  #value: { row: ScanRow; value: unknown } | null = null;
  #iteration: Iteration | null = null;
  #inCallback = false;
  #pending: Move | null = null;

  private constructor(trans: SqliteTransaction, source: CursorSource, batch: ScanRow[]) {
    this.trans = trans;
    this.#source = source;
    this.#batch = batch;
    this.#exhausted = batch.length < FIRST_BATCH;
    this.#generation = source.generation();
  }

  /** A cursor on the first entry of the walk, or null when it has none. */
  static open(trans: SqliteTransaction, source: CursorSource): SqliteCursor | null {
    const batch = source.fetch(null, FIRST_BATCH);
    return batch.length === 0 ? null : new SqliteCursor(trans, source, batch);
  }

  get #row(): ScanRow | undefined {
    return this.#batch[this.#at];
  }

  get key(): unknown {
    const row = this.#row;
    return row && decodeKey(row.ik);
  }

  get primaryKey(): unknown {
    const row = this.#row;
    return row && decodeKey(row.pk);
  }

  get value(): unknown {
    const row = this.#row;
    if (!row?.v) return undefined;
    if (this.#value?.row !== row) this.#value = { row, value: decodeValue(row.v) };
    return this.#value.value;
  }

  continue(key?: unknown): void {
    this.#ask({ kind: 'continue', key });
  }

  continuePrimaryKey(key: unknown, primaryKey: unknown): void {
    this.#ask({ kind: 'continuePrimaryKey', key, primaryKey });
  }

  advance(count: number): void {
    this.#ask({ kind: 'advance', count });
  }

  start(onNext: () => void): Promise<unknown> {
    if (this.done) throw new Error('Cursor behind last entry');
    return new Promise((resolve, reject) => {
      this.#iteration = { onNext, resolve, reject };
      this.#pump();
    });
  }

  stop(value?: unknown): void {
    const iteration = this.#iteration;
    this.#iteration = null;
    iteration?.resolve(value);
  }

  fail(error: Error): void {
    const iteration = this.#iteration;
    this.#iteration = null;
    iteration?.reject(error);
  }

  next(): Promise<SqliteCursor> {
    let gotOne = 1;
    return this.start(() => (gotOne-- ? this.continue() : this.stop())).then(() => this);
  }

  #ask(move: Move): void {
    if (this.#pending) throw new DOMException('The cursor is already moving', 'InvalidStateError');
    this.#pending = move;
    // Asked for outside a callback (after an await): moves, then calls back, as a request would.
    if (!this.#inCallback) queueMicrotask(() => this.#moveThenPump());
  }

  #moveThenPump(): void {
    if (!this.#pending) return;
    if (this.#applyPending()) this.#pump();
  }

  /** Calls back for each entry reached while the callback keeps asking for synchronous moves. */
  #pump(): void {
    while (this.#iteration) {
      if (this.done) {
        this.stop();
        return;
      }
      this.#inCallback = true;
      try {
        this.#iteration.onNext();
      } catch (error) {
        this.fail(error as Error);
        return;
      } finally {
        this.#inCallback = false;
      }
      if (!this.#iteration || !this.#pending) return;
      if (!this.#applyPending()) return;
    }
  }

  /** Performs the pending move as a request of the transaction; false when it failed. */
  #applyPending(): boolean {
    const move = this.#pending!;
    this.#pending = null;
    try {
      this.trans.runNow(this.#source.table, () => this.#move(move));
      return true;
    } catch (error) {
      this.fail(error as Error);
      return false;
    }
  }

  #move(move: Move): void {
    if (move.kind === 'advance') {
      for (let i = 0; i < move.count && !this.done; i++) this.#step();
    } else if (move.kind === 'continuePrimaryKey') {
      this.#seek({ kind: 'atEntry', ik: encodeBound(move.key), pk: encodeBound(move.primaryKey) });
    } else if (move.key !== undefined) {
      this.#seek({ kind: 'atKey', ik: encodeBound(move.key) });
    } else {
      this.#step();
    }
  }

  /** To the next entry (the next key for a unique walk). */
  #step(): void {
    const current = this.#row!;
    if (this.#source.generation() === this.#generation) {
      for (let next = this.#at + 1; next < this.#batch.length; next++) {
        if (!this.#source.unique || Buffer.compare(this.#batch[next]!.ik, current.ik) !== 0) {
          this.#at = next;
          return;
        }
      }
      if (this.#exhausted) return this.#end();
    }
    this.#refill(this.#source.unique ? { kind: 'afterKey', ik: current.ik } : { kind: 'after', ik: current.ik, pk: current.pk });
  }

  /** To the first entry at or beyond `target` in the walk's direction. */
  #seek(target: Extract<ScanStart, { kind: 'atKey' | 'atEntry' }>): void {
    if (this.#source.generation() === this.#generation) {
      const sign = this.#source.reverse ? -1 : 1;
      for (let next = this.#at + 1; next < this.#batch.length; next++) {
        const row = this.#batch[next]!;
        let order = Buffer.compare(row.ik, target.ik) * sign;
        if (order === 0 && target.kind === 'atEntry') order = Buffer.compare(row.pk, target.pk) * sign;
        if (order >= 0) {
          this.#at = next;
          return;
        }
      }
      if (this.#exhausted) return this.#end();
    }
    this.#refill(target);
  }

  #refill(start: ScanStart): void {
    this.#batchSize = Math.min(this.#batchSize * 4, LARGEST_BATCH);
    this.#batch = this.#source.fetch(start, this.#batchSize);
    this.#exhausted = this.#batch.length < this.#batchSize;
    this.#generation = this.#source.generation();
    this.#at = 0;
    this.#value = null;
    if (this.#batch.length === 0) this.#end();
  }

  #end(): void {
    this.done = true;
    this.#batch = [];
    this.#at = 0;
  }
}
