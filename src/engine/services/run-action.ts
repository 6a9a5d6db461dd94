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
  const result = await engine.db.transaction('rw', engine.db.tables, async (tx) => {
    const scope: ActionScope = { db: bindToTransaction(engine.db, tx), notify: (notice) => notices.push(notice), queued: notices, now: engine.nowSeconds() };
    const answer = await body(scope);
    if (engine.writeJournal) await engine.writeJournal(scope, notices);
    return answer;
  });
  engine.queues.deliver(notices);
  return result;
}

/** A read-only snapshot over every table (initial state for /register, page fetches). */
export function readSnapshot<T>(engine: EngineServices, body: (db: RealmDatabase) => Promise<T>): Promise<T> {
  return engine.db.transaction('r', engine.db.tables, (tx) => body(bindToTransaction(engine.db, tx)));
}
