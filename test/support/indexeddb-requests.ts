/**
 * Counts the IndexedDB requests fake-indexeddb executes: every object store and index operation
 * and every cursor step is one request (in a browser, one round trip to the IndexedDB backend,
 * whatever Dexie call issued it), named `table.method` or `table[index].method`. Transactions
 * are counted apart. The counting wraps fake-indexeddb's prototypes for the test file that
 * imports this module, so only the requests issued while `record` runs its body are counted.
 */
import { IDBCursor, IDBDatabase, IDBIndex, IDBObjectStore } from 'fake-indexeddb';

export interface RequestLog {
  /** Every request in the order issued. */
  requests: string[];
  /** Transactions opened, as `mode tables`. */
  transactions: string[];
}

let log: RequestLog | null = null;

type Method = (this: any, ...args: any[]) => unknown;

function wrap(prototype: object, methods: readonly string[], name: (target: any, method: string) => string): void {
  for (const method of methods) {
    const original = (prototype as Record<string, Method>)[method];
    (prototype as Record<string, Method>)[method] = function (this: any, ...args: any[]) {
      log?.requests.push(name(this, method));
      return original.apply(this, args);
    };
  }
}

const READS = ['get', 'getAll', 'getKey', 'getAllKeys', 'getAllRecords', 'count', 'openCursor', 'openKeyCursor'];
wrap(IDBObjectStore.prototype, [...READS, 'put', 'add', 'delete', 'clear'], (store, method) => `${store.name}.${method}`);
wrap(IDBIndex.prototype, READS, (index, method) => `${index.objectStore.name}[${index.name}].${method}`);
wrap(IDBCursor.prototype, ['continue', 'advance', 'continuePrimaryKey', 'update', 'delete'], (_cursor, method) => `cursor.${method}`);

const transaction = IDBDatabase.prototype.transaction;
IDBDatabase.prototype.transaction = function (this: IDBDatabase, ...args: Parameters<IDBDatabase['transaction']>) {
  const [stores, mode] = args;
  log?.transactions.push(`${mode ?? 'readonly'} ${[stores].flat().length} tables`);
  return transaction.apply(this, args);
};

/** The requests and transactions issued while `body` runs (and its promise settles). */
export async function record(body: () => Promise<unknown>): Promise<RequestLog> {
  if (log) throw new Error('record() calls cannot overlap');
  const current: RequestLog = { requests: [], transactions: [] };
  log = current;
  try {
    await body();
  } finally {
    log = null;
  }
  return current;
}
