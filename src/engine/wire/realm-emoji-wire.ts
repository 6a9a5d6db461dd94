import type { RealmEmojiRow } from '../storage/rows.ts';

/** Every custom emoji, deactivated ones included, keyed by id (register and GET /realm/emoji). */
export function realmEmojiToWire(emoji: readonly RealmEmojiRow[]): Record<string, Record<string, unknown>> {
  return Object.fromEntries(
    [...emoji]
      .sort((a, b) => a.id - b.id)
      .map((e) => [
        String(e.id),
        { id: String(e.id), name: e.name, source_url: e.source_url, still_url: null, deactivated: e.deactivated, author_id: e.author_id },
      ]),
  );
}
