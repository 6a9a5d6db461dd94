import type {
  DBCore,
  DBCoreDeleteRangeRequest,
  DBCoreMutateRequest,
  DBCoreMutateResponse,
  DBCoreTable,
  DBCoreTransaction,
  Middleware,
} from 'dexie';

/**
 * What a committed read-write transaction left behind: per table, per primary key (as JSON),
 * the row as JSON, or null when the row was deleted.
 */
export type CommittedChanges = Map<string, Map<string, string | null>>;

export interface WriteThroughTarget {
  /**
   * Called synchronously when IndexedDB reports a transaction complete, before Dexie's own
   * completion handler resolves the caller's promise. It must not return unless `changes`
   * are durable: returning (or throwing) lets Dexie acknowledge the write.
   */
  commit(changes: CommittedChanges): void;
  /** Called whenever the last read-write transaction in flight has finished. */
  idle(): void;
}

/** One mutate() call: its rows in request order, as [key JSON, row JSON or null]. */
interface PendingWrite {
  table: string;
  rows: [string, string | null][];
}

/** The DBCore `Never` range type (a const enum, which isolatedModules cannot import). */
const NEVER_RANGE = 4;

/**
 * Records the mutations of each read-write transaction and hands their net effect to `target`
 * when the transaction completes. Only tables with inbound, non-auto-increment primary keys
 * are supported: the key is then always derivable from the row itself.
 */
export class WriteThrough {
  private readonly pending = new WeakMap<DBCoreTransaction, PendingWrite[]>();
  private readonly target: WriteThroughTarget;
  private inFlightCount = 0;

  constructor(target: WriteThroughTarget) {
    this.target = target;
  }

  /** Read-write transactions begun and not yet completed or aborted. */
  get inFlight(): number {
    return this.inFlightCount;
  }

  readonly middleware: Middleware<DBCore> = {
    stack: 'dbcore',
    name: 'SqliteWriteThrough',
    // Lowest of all: sees exactly the values that reach IndexedDB, after hooks and other layers.
    level: -1000,
    create: (down) => {
      for (const { name, primaryKey } of down.schema.tables) {
        if (primaryKey.outbound || primaryKey.autoIncrement) {
          throw new Error(`table ${name}: persistence needs inbound, non-auto-increment primary keys`);
        }
      }
      return {
        transaction: (stores, mode, options) => {
          const trans = down.transaction(stores, mode, options);
          if (mode === 'readwrite') this.track(trans);
          return trans;
        },
        table: (name) => this.wrapTable(down.table(name)),
      };
    },
  };

  private track(trans: DBCoreTransaction): void {
    const log: PendingWrite[] = [];
    this.pending.set(trans, log);
    this.inFlightCount++;
    const idbTrans = trans as unknown as IDBTransaction;
    // Registered before Dexie sets `oncomplete`, so this runs first and the caller is only
    // acknowledged once `commit` has returned.
    idbTrans.addEventListener('complete', () => {
      this.target.commit(netChanges(log));
      this.finished();
    });
    idbTrans.addEventListener('abort', () => this.finished());
  }

  private finished(): void {
    if (--this.inFlightCount === 0) this.target.idle();
  }

  private wrapTable(table: DBCoreTable): DBCoreTable {
    const { name, primaryKey } = table.schema;
    const extractKey = primaryKey.extractKey!;
    return {
      ...table,
      mutate: (req) => {
        const log = this.pending.get(req.trans);
        if (!log) {
          return Promise.reject(
            new Error(`write to ${name} outside a read-write transaction (upgrade or populate) would not be persisted`),
          );
        }
        const write: PendingWrite = { table: name, rows: [] };
        if (req.type === 'add' || req.type === 'put') {
          // Serialised now: the caller may change these objects later in the transaction.
          write.rows = req.values.map((value) => [JSON.stringify(extractKey(value)), JSON.stringify(value)]);
        } else if (req.type === 'delete') {
          write.rows = req.keys.map((key) => [JSON.stringify(key), null]);
        } else if (req.range.type !== NEVER_RANGE) {
          log.push(write);
          return this.deleteRange(table, req, write);
        }
        log.push(write);
        return this.forward(table, req, write);
      },
    };
  }

  private deleteRange(table: DBCoreTable, req: DBCoreDeleteRangeRequest, write: PendingWrite): Promise<DBCoreMutateResponse> {
    // Issued before the delete, so IndexedDB answers with exactly the keys it removes.
    const query = { index: table.schema.primaryKey, range: req.range };
    const keys = table.query({ trans: req.trans, values: false, query });
    return Promise.all([keys, this.forward(table, req, write)]).then(
      ([{ result }, res]) => {
        if (res.numFailures === 0) write.rows = result.map((key) => [JSON.stringify(key), null]);
        return res;
      },
      (error: unknown) => abandon(write, req.trans, error),
    );
  }

  private forward(table: DBCoreTable, req: DBCoreMutateRequest, write: PendingWrite): Promise<DBCoreMutateResponse> {
    return table.mutate(req).then(
      (res) => {
        // A bulk operation's failed items (e.g. a duplicate in bulkAdd) did not reach the store.
        if (res.numFailures > 0) write.rows = write.rows.filter((_, i) => !(i in res.failures));
        return res;
      },
      (error: unknown) => abandon(write, req.trans, error),
    );
  }
}

/**
 * A rejected mutate may have issued some of its requests; which ones is unknowable, so the
 * transaction is aborted rather than let memory and disk disagree.
 */
function abandon(write: PendingWrite, trans: DBCoreTransaction, error: unknown): never {
  write.rows = [];
  try {
    trans.abort();
  } catch {
    // Already finished: nothing of this write reached IndexedDB.
  }
  throw error;
}

function netChanges(log: PendingWrite[]): CommittedChanges {
  const changes: CommittedChanges = new Map();
  for (const { table, rows } of log) {
    let tableChanges = changes.get(table);
    if (!tableChanges) changes.set(table, (tableChanges = new Map()));
    for (const [key, value] of rows) tableChanges.set(key, value);
  }
  return changes;
}
