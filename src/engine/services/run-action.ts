import type { EngineServices } from './engine-services.ts';
import type { Notice } from '../events/event-types.ts';
import { bindToTransaction } from '../storage/bound-database.ts';
import type { RealmDatabase } from '../storage/database.ts';
import type { RealmDirectory } from '../directory/realm-directory.ts';
import type { UserRow } from '../storage/rows.ts';

export interface ActionScope {
  /** The database, bound to this action's transaction: use it for every read and write. */
  readonly db: RealmDatabase;
  /** Queues a notice; it is delivered only if the transaction commits. */
  notify(notice: Notice): void;
  /** The action's timestamp in UNIX seconds (one value for the whole action). */
  readonly now: number;
}

/** The scope of an action a request asked for: the transaction, plus who asked and what they see. */
export interface CallerScope<Caller extends UserRow | null = UserRow> extends ActionScope {
  /** The realm's directory as this transaction reads it. */
  readonly directory: RealmDirectory;
  /** The caller's row as this transaction reads it. */
  readonly caller: Caller;
  /** The sending client's name (`client` parameter or User-Agent), as upstream records it. */
  readonly clientName: string;
}

/** What a read endpoint sees: one read-only snapshot, and the caller within it. */
export interface ReadScope<Caller extends UserRow | null = UserRow> {
  readonly db: RealmDatabase;
  readonly directory: RealmDirectory;
  readonly caller: Caller;
  readonly clientName: string;
  /** UNIX seconds, from the engine's clock. */
  readonly now: number;
}

/**
 * Called inside every action's transaction, after the action, with the notices it queued: what
 * a host records atomically with each change (the sync hub's change feed). A throw rolls the
 * action back.
 */
export type WriteJournal = (scope: ActionScope, notices: readonly Notice[]) => Promise<void>;

/**
 * Runs one action: a single read-write Dexie transaction over every table, then delivery of
 * the notices it queued — synchronously after the commit, so no other request can observe the
 * new state without its events having reached the queues. A throw rolls everything back and
 * delivers nothing.
 */
export async function runAction<T>(engine: EngineServices, body: (scope: ActionScope) => Promise<T>): Promise<T> {
  const notices: Notice[] = [];
  const result = await engine.db.transaction('rw', engine.db.tables, async (tx) => {
    const scope: ActionScope = { db: bindToTransaction(engine.db, tx), notify: (notice) => notices.push(notice), now: engine.nowSeconds() };
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
