import type { DBCore, DBCoreTransaction, Middleware } from 'dexie';
import { TableWrites } from './table-writes.ts';
import { tableWriteWatch } from './table-write-watch.ts';

/**
 * The newest message each user holds a flags row for (`GET /users/me`'s `max_message_id`), as
 * last read, so the answer needs no transaction: a read's value is kept only if no `user_messages`
 * write was issued or open since the read began, and every such write forgets them all. Like the
 * realm directory's cache, it sees only the writes of this Dexie instance.
 */
export class NewestReceived {
  readonly #known = new Map<number, number>();
  readonly #writes = new TableWrites(() => this.#known.clear());

  /** The newest message id `userId` holds (-1: none), if known for the committed state. */
  peek(userId: number): number | undefined {
    return this.#writes.settled() === null ? undefined : this.#known.get(userId);
  }

  /** Taken before reading the value to `remember`: null when a read now could see uncommitted rows. */
  readStarts(): number | null {
    return this.#writes.settled();
  }

  /** Keeps `newest`, read for `userId` from the moment `readStarts` gave `generation`, unless a write came since. */
  remember(userId: number, newest: number, generation: number | null): void {
    if (generation !== null && generation === this.#writes.settled()) this.#known.set(userId, newest);
  }

  /** A `user_messages` write was issued by `trans`. */
  writtenBy(trans: DBCoreTransaction): void {
    this.#writes.writtenBy(trans);
  }
}

/** Tells `newest` of every `user_messages` write of this database instance, as it is issued (below Dexie's hooks: no read). */
export function newestReceivedMiddleware(newest: NewestReceived): Middleware<DBCore> {
  return tableWriteWatch('NewestReceived', 'user_messages', (request) => newest.writtenBy(request.trans));
}
