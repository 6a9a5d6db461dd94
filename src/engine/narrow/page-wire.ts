import { flagList } from '../storage/flags.ts';
import { messageToWire } from '../wire/message-wire.ts';
import type { RealmDirectory } from '../directory/realm-directory.ts';
import type { RealmDatabase } from '../storage/database.ts';
import type { ReactionRow, UserRow } from '../storage/rows.ts';
import type { Candidate } from './narrow-match.ts';
import type { SearchQuery } from './narrow-terms.ts';
import { searchMatchFields } from './search-highlight.ts';

export interface PageWireOptions {
  applyMarkdown: boolean;
  allowEmptyTopicName: boolean;
  /** A search narrow's query: adds `match_content` and `match_subject`. */
  search?: SearchQuery;
}

/** Flags of a channel message the viewer reads as history (no UserMessage row). */
export const HISTORICAL_FLAGS = ['read', 'historical'];

/**
 * The API message objects for `ids` (already checked as visible), in the given order, with
 * the viewer's `flags`. Rows already read while finding the page (`found`) are reused; the
 * rest and the reactions are read in bulk, once per page, and reactions only of the messages that
 * may have some: a page of found rows without any issues no request.
 */
export const pageMessagesToWire = async (
  db: RealmDatabase,
  directory: RealmDirectory,
  viewer: UserRow,
  ids: readonly number[],
  options: PageWireOptions,
  found: ReadonlyMap<number, Candidate> = new Map(),
): Promise<Record<string, unknown>[]> => {
  const missing = ids.filter((id) => !found.has(id));
  const reacted = await db.reactedMessages.among(db.reactions, ids);
  const [rows, userMessages, reactions] = await Promise.all([
    missing.length > 0 ? db.messages.bulkGet(missing) : [],
    missing.length > 0 ? db.user_messages.bulkGet(missing.map((id): [number, number] => [viewer.id, id])) : [],
    // One range read per message, issued together: `anyOf` would walk a cursor, a round trip per step.
    Promise.all(reacted.map((id) => db.reactions.where('message_id').equals(id).toArray())),
  ]);
  const read = new Map<number, Candidate>(found);
  rows.forEach((row, index) => {
    if (row) read.set(row.id, { row, userMessage: userMessages[index], hasReaction: false });
  });
  const reactionsByMessage = new Map<number, ReactionRow[]>();
  for (const reaction of reactions.flat().sort((a, b) => a.seq - b.seq)) {
    const list = reactionsByMessage.get(reaction.message_id) ?? [];
    list.push(reaction);
    reactionsByMessage.set(reaction.message_id, list);
  }
  const wireOptions = { viewer, applyMarkdown: options.applyMarkdown, allowEmptyTopicName: options.allowEmptyTopicName };
  // A page holds few distinct sets of flags: each list is made once and shared by its messages.
  const flagLists = new Map<number, string[]>();
  const flagsOf = (bits: number): string[] => flagLists.get(bits) ?? flagLists.set(bits, flagList(bits)).get(bits)!;
  const messages: Record<string, unknown>[] = [];
  for (const id of ids) {
    const candidate = read.get(id);
    if (!candidate) continue;
    const { row, userMessage } = candidate;
    const wire = messageToWire(row, reactionsByMessage.get(row.id) ?? [], directory, wireOptions);
    wire.flags = userMessage ? flagsOf(userMessage.flags) : [...HISTORICAL_FLAGS];
    if (options.search) Object.assign(wire, searchMatchFields(row, options.search, directory, options.allowEmptyTopicName));
    messages.push(wire);
  }
  return messages;
};
