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
export async function runAction<T>(engine: EngineServices, body: (scope: ActionScope) => Promise<T>): Promise<T> {
  const notices: Notice[] = [];
  const inFlight = actionsInFlight.get(engine.db) ?? 0;
  actionsInFlight.set(engine.db, inFlight + 1);
  try {
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
  } finally {
    actionsInFlight.set(engine.db, (actionsInFlight.get(engine.db) ?? 1) - 1);
  }
}

/** The actions begun and not yet ended, per database. */
const actionsInFlight = new WeakMap<RealmDatabase, number>();

/** A read-only snapshot over every table (initial state for /register, page fetches). */
export function readSnapshot<T>(engine: EngineServices, body: (db: RealmDatabase) => Promise<T>): Promise<T> {
  return engine.db.transaction('r', engine.db.tables, (tx) => body(bindToTransaction(engine.db, tx)));
}
