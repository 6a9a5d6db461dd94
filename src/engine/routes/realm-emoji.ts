import { readSnapshot } from '../actions/run-action.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { realmEmojiToWire } from '../initial-state/realm-objects.ts';
import { RealmDirectory } from '../lib/realm-directory.ts';

/** The realm's custom emoji, in the shape of the register `realm_emoji` section. */
export const realmEmojiEndpoints = [
  defineEndpoint({
    method: 'GET',
    path: '/realm/emoji',
    params: {},
    async handler(ctx) {
      const directory = await readSnapshot(ctx.engine, (db) => RealmDirectory.load(db));
      return { emoji: realmEmojiToWire(directory.emoji) };
    },
  }),
];
