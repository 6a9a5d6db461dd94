/**
 * The scopes actions and reads run in, and the journal a host may add to every action: types
 * only, apart from `run-action.ts`, so `EngineServices` names the journal without an import cycle.
 */
import type { Notice } from '../events/event-types.ts';
import type { RealmDatabase } from '../storage/database.ts';
import type { RealmDirectory } from '../directory/realm-directory.ts';
import type { UserRow } from '../storage/rows.ts';

export interface ActionScope {
  /** The database, bound to this action's transaction: use it for every read and write. */
  readonly db: RealmDatabase;
  /** Queues a notice; it is delivered only if the transaction commits. */
  notify(notice: Notice): void;
  /** The notices queued so far (a host's transaction hook reads what the action did). */
  readonly queued: readonly Notice[];
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
 * What a read endpoint's `fromMemory` sees: the cached directory and the caller, and no
 * transaction. `caches` is the database only for the engine's in-memory caches (`peekMemo`,
 * `newestReceived`); reading its tables would leave the snapshot rule.
 */
export interface MemoryScope<Caller extends UserRow | null = UserRow> extends Omit<ReadScope<Caller>, 'db'> {
  readonly caches: RealmDatabase;
}

/**
 * Called inside every action's transaction, after the action, with the notices it queued: what
 * a host records atomically with each change (the sync hub's change feed). A throw rolls the
 * action back.
 */
export type WriteJournal = (scope: ActionScope, notices: readonly Notice[]) => Promise<void>;
