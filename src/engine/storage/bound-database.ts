import type { Transaction } from 'dexie';
import type { RealmDatabase } from './database.ts';

/** The transaction a bound view's tables are taken from. */
const TRANSACTION = Symbol('transaction');

type BoundView = RealmDatabase & { [TRANSACTION]: Transaction };

/** Per database, the prototype of its bound views: one getter per table, defined once. */
const prototypes = new WeakMap<RealmDatabase, RealmDatabase>();

/**
 * A view of the database whose tables are bound to one transaction. Dexie otherwise finds the
 * current transaction through its "zone", which native async functions can lose after a few
 * nested awaits (Dexie issue #1186): later calls then run outside the transaction and it
 * commits early. Actions and snapshots use this view, so every read and write reaches the
 * transaction that was opened for them.
 */
export function bindToTransaction(db: RealmDatabase, tx: Transaction): RealmDatabase {
  const bound = Object.create(prototypeOf(db)) as BoundView;
  bound[TRANSACTION] = tx;
  return bound;
}

/**
 * Each table is bound when first used: Dexie builds a whole Table object per `tx.table()`, and
 * most requests touch a few of the ~40 tables. The getters live on a shared prototype, since
 * defining ~40 properties per transaction cost a small read as much as its query.
 */
function prototypeOf(db: RealmDatabase): RealmDatabase {
  const known = prototypes.get(db);
  if (known) return known;
  const prototype = Object.create(db) as RealmDatabase;
  for (const { name } of db.tables) {
    Object.defineProperty(prototype, name, {
      configurable: true,
      enumerable: true,
      get(this: BoundView) {
        const table = this[TRANSACTION].table(name);
        Object.defineProperty(this, name, { value: table, enumerable: true });
        return table;
      },
    });
  }
  prototypes.set(db, prototype);
  return prototype;
}
