import { emojiCodeToNames } from '../emoji/emoji-catalog.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { SERVER_EMOJI_DATA_PATH } from '../wire/paths.ts';
import { realmEmojiToWire } from '../initial-state/realm-objects.ts';

/** The realm's custom emoji, in the shape of the register `realm_emoji` section; and the server's Unicode emoji data. */
export const realmEmojiEndpoints = [
  defineEndpoint({
    method: 'GET',
    path: '/realm/emoji',
    params: {},
    async read(scope) {
      return { emoji: realmEmojiToWire(scope.directory.emoji) };
    },
  }),
  defineEndpoint({
    method: 'GET',
    path: SERVER_EMOJI_DATA_PATH,
    auth: 'none',
    params: {},
    // Upstream serves this file statically to anyone; clients read `code_to_names` (the envelope's other keys are extra).
    // It reads nothing of the realm, so it needs no snapshot.
    handler: async () => ({ code_to_names: emojiCodeToNames() }),
  }),
];
