import type { ActionScope } from './action-scope.ts';
import type { EngineServices } from './engine-services.ts';
import type { Notice } from '../events/event-types.ts';
import { bindToTransaction } from '../storage/bound-database.ts';
import type { RealmDatabase } from '../storage/database.ts';

/**
 * Runs one action: a single read-write Dexie transaction over every table, then delivery of
 * the notices it queued — synchronously after the commit, so no other request can observe the
 * new state without its events having reached the queues. A throw rolls everything back and
 * delivers nothing.
 */
export function runAction<T>(engine: EngineServices, body: (scope: ActionScope) => Promise<T>): Promise<T> {
  const notices: Notice[] = [];
  return asWriteInFlight(engine.db, async (inFlight) => {
    const result = await engine.db.transaction('rw', engine.db.tables, async (tx) => {
      const scope: ActionScope = { db: bindToTransaction(engine.db, tx), notify: (notice) => notices.push(notice), queued: notices, now: engine.nowSeconds() };
      // The body starts at once, but its requests run only after the actions begun before it
      // end: one request first, so that what it reads from memory (the directory cache, held
      // ids) is read after their writes, not before (two requests creating one channel name
      // at once both tried to add it). Alone, an action needs no wait.
      if (inFlight > 0) await scope.db.realm.get(1);
      const answer = await body(scope);
      if (engine.writeJournal) await engine.writeJournal(scope, notices);
      return answer;
    });
    engine.queues.deliver(notices);
    return result;
  });
}

/** The writes (actions, and realm-wide writes outside them) begun and not yet ended, per database. */
const writesInFlight = new WeakMap<RealmDatabase, number>();

/**
 * Runs `write`, a read-write transaction on `db`, counted in flight while it runs; it is told
 * how many were in flight when it began. A realm-wide write outside an action (a scenario, an
 * import, a replica's reset) runs through it too, so that actions begun meanwhile wait for it.
 */
export async function asWriteInFlight<T>(db: RealmDatabase, write: (inFlight: number) => Promise<T>): Promise<T> {
  const inFlight = writesInFlight.get(db) ?? 0;
  writesInFlight.set(db, inFlight + 1);
  try {
    return await write(inFlight);
  } finally {
    writesInFlight.set(db, (writesInFlight.get(db) ?? 1) - 1);
  }
}

/**
 * A read-only snapshot over every table (initial state for /register, page fetches). Begun while
 * writes are in flight, its requests see their result: it makes one request first, so that what
 * it reads from memory (the directory cache) is read after them too.
 */
export function readSnapshot<T>(engine: EngineServices, body: (db: RealmDatabase) => Promise<T>): Promise<T> {
  const behindWrites = writesInFlightOn(engine.db);
  return engine.db.transaction('r', engine.db.tables, async (tx) => {
    const db = bindToTransaction(engine.db, tx);
    if (behindWrites) await db.realm.get(1);
    return body(db);
  });
}

/** Whether a write begun earlier is still in flight on `db`: a transaction begun now runs its requests after it, but its code at once. */
export const writesInFlightOn = (db: RealmDatabase): boolean => (writesInFlight.get(db) ?? 0) > 0;
