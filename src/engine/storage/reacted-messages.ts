import type { DBCore, EntityTable, Middleware } from 'dexie';
import type { ReactionRow } from './rows.ts';
import { tableWriteWatch } from './table-write-watch.ts';

/**
 * Which messages may have reactions, so that a page reads reactions only for those: a page with
 * none of them reads none, instead of a round trip after its messages for an empty answer.
 *
 * It holds every message that has a reaction, and may hold more: the messages of the reactions
 * stored before this database was opened (read once, on first use) and of every reaction written
 * since, noted by a DBCore middleware when the write is issued, before any reader can see it
 * commit. A message whose reactions were all removed (or rolled back) stays in it: its page then
 * reads its reactions and finds none. Like the realm directory's cache, it sees only the writes
 * of this Dexie instance.
 */
export class ReactedMessages {
  /** Messages of reactions written through this instance. */
  readonly #written = new Set<number>();
  /** Messages of the reactions stored before, once read. */
  #stored: ReadonlySet<number> | null = null;

  /** Notes a reaction's message as it is written. */
  note(messageId: number): void {
    this.#written.add(messageId);
  }

  /** The ids among `ids` that may have reactions; reads the stored ones the first time. */
  async among(reactions: EntityTable<ReactionRow, 'key'>, ids: readonly number[]): Promise<number[]> {
    this.#stored ??= new Set((await reactions.toCollection().toArray()).map((reaction) => reaction.message_id));
    const stored = this.#stored;
    return ids.filter((id) => stored.has(id) || this.#written.has(id));
  }
}

/** Notes the message of every reaction added or put, as the write is issued. */
export function reactedMessagesMiddleware(reacted: ReactedMessages): Middleware<DBCore> {
  return tableWriteWatch('ReactedMessages', 'reactions', (request) => {
    if (request.type === 'add' || request.type === 'put') {
      for (const value of request.values as ReactionRow[]) reacted.note(value.message_id);
    }
  });
}
