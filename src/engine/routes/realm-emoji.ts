import { addRealmEmoji, checkEmojiUpload, deactivateRealmEmoji, emojiNameFromPath, type EmojiImage } from '../actions/realm-emoji.ts';
import { emojiCatalog, emojiCodeToNames } from '../emoji/emoji-catalog.ts';
import { callerAction, callerRead, defineEndpoint } from '../http/endpoint.ts';
import { str } from '../http/param-types.ts';
import { newPathId } from '../storage/upload-paths.ts';
import { uploadContentType } from '../validation/upload-limits.ts';
import { SERVER_EMOJI_DATA_PATH } from '../wire/paths.ts';
import { realmEmojiToWire } from '../wire/realm-emoji-wire.ts';

/**
 * The realm's custom emoji, in the shape of the register `realm_emoji` section; uploading and
 * deactivating one; and the server's Unicode emoji data. An uploaded image is stored through the
 * upload store and served at its `/user_uploads/...` URL to anyone (emoji are public to the realm,
 * as upstream's `/user_avatars/` files are).
 */
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
    method: 'POST',
    path: '/realm/emoji/{emoji_name}',
    params: { emoji_name: str() },
    async handler(ctx, params) {
      const name = emojiNameFromPath(params.emoji_name);
      // Upstream counts every file of the request, whatever its part's name; a part without a file name is no file.
      const files = ctx.files.filter((file) => file.name !== '');
      const images: EmojiImage[] = files.map((file) => ({ size: file.size, contentType: uploadContentType(file.type, file.name) }));
      // Checked before the bytes are stored, so a refused upload stores nothing.
      const image = await callerRead(ctx, ctx.user, async ({ directory, caller }) => checkEmojiUpload(directory, caller, name, images));
      const path = newPathId(ctx.realm.id, files[0].name);
      const { uploads } = ctx.engine;
      await uploads.put(path, new Uint8Array(await files[0].arrayBuffer()));
      try {
        await callerAction(ctx, (scope) => addRealmEmoji(scope, { name, pathId: path, image }));
      } catch (error) {
        await uploads.delete(path);
        throw error;
      }
      return {};
    },
  }),
  defineEndpoint({
    method: 'DELETE',
    path: '/realm/emoji/{emoji_name}',
    params: { emoji_name: str() },
    async write(scope, params) {
      await deactivateRealmEmoji(scope, params.emoji_name);
      return {};
    },
  }),
  defineEndpoint({
    method: 'GET',
    path: SERVER_EMOJI_DATA_PATH,
    auth: 'none',
    params: {},
    // Upstream serves this file statically to anyone; its clients read `code_to_names` only, so
    // `emoji_catalog` (the picker's categories, codes only) is an extra key this app's picker reads.
    // It reads nothing of the realm, so it needs no snapshot.
    handler: async () => ({ code_to_names: emojiCodeToNames(), emoji_catalog: emojiCatalog() }),
  }),
];
