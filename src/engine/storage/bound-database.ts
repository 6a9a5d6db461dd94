import type { Transaction } from 'dexie';
import type { RealmDatabase } from './database.ts';

/**
 * A view of the database whose tables are bound to one transaction. Dexie otherwise finds the
 * current transaction through its "zone", which native async functions can lose after a few
 * nested awaits (Dexie issue #1186): later calls then run outside the transaction and it
 * commits early. Actions and snapshots use this view, so every read and write reaches the
 * transaction that was opened for them.
 */
export function bindToTransaction(db: RealmDatabase, tx: Transaction): RealmDatabase {
  const bound = Object.create(db) as RealmDatabase;
  // Each table is bound when first used: Dexie builds a whole Table object per `tx.table()`, and
  // most requests touch a few of the ~40 tables (binding them all cost `GET /users/me` ~40%).
  for (const { name } of db.tables) {
    Object.defineProperty(bound, name, {
      configurable: true,
      enumerable: true,
      get() {
        const table = tx.table(name);
        Object.defineProperty(bound, name, { value: table, enumerable: true });
        return table;
      },
    });
  }
  return bound;
}
