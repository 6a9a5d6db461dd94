import type { Dexie } from 'dexie';

/**
 * Takes Dexie's liveQuery machinery off a database: nothing here uses `liveQuery`, yet its two
 * middlewares tracked the keys of every write (and the ranges of every index they touch), and
 * at each commit Dexie posted them on a BroadcastChannel to every other Dexie of the origin
 * (in a browser, a hop through the browser's process per committed write; in Node, a
 * structured clone). Measured in docs/PERFORMANCE.md, "Dexie's liveQuery bookkeeping".
 */
export function withoutLiveQueries<T extends Dexie>(db: T): T {
  db.unuse({ stack: 'dbcore', name: 'Observability' });
  db.unuse({ stack: 'dbcore', name: 'Cache' });
  return db;
}
