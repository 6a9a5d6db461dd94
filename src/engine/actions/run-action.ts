import type { Engine } from '../engine.ts';
import type { Notice } from '../events/event-types.ts';

export interface ActionScope {
  /** Queues a notice; it is delivered only if the transaction commits. */
  notify(notice: Notice): void;
  /** The action's timestamp in UNIX seconds (one value for the whole action). */
  readonly now: number;
}

/**
 * Runs one action: a single read-write Dexie transaction over every table, then delivery of
 * the notices it queued — synchronously after the commit, so no other request can observe the
 * new state without its events having reached the queues. A throw rolls everything back and
 * delivers nothing.
 */
export async function runAction<T>(engine: Engine, body: (scope: ActionScope) => Promise<T>): Promise<T> {
  const notices: Notice[] = [];
  const scope: ActionScope = { notify: (notice) => notices.push(notice), now: engine.nowSeconds() };
  const result = await engine.db.transaction('rw', engine.db.tables, () => body(scope));
  engine.queues.deliver(notices);
  return result;
}

/** A read-only snapshot over every table (initial state for /register, page fetches). */
export function readSnapshot<T>(engine: Engine, body: () => Promise<T>): Promise<T> {
  return engine.db.transaction('r', engine.db.tables, body);
}
