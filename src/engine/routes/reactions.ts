import { addReaction, removeReaction } from '../actions/reactions.ts';
import { runAction } from '../actions/run-action.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { pathId, str } from '../http/param-types.ts';
import { RealmDirectory } from '../lib/realm-directory.ts';

/** Emoji reactions on a message: POST adds the caller's, DELETE removes it. */
export const reactionEndpoints = [
  defineEndpoint({
    method: 'POST',
    path: '/messages/{message_id}/reactions',
    params: {
      message_id: pathId(),
      emoji_name: str(),
      emoji_code: str().optional(),
      reaction_type: str().optional(),
    },
    async handler(ctx, params) {
      const { engine, user } = ctx;
      await runAction(engine, async (scope) => {
        const directory = await RealmDirectory.load(scope.db);
        await addReaction(scope.db, scope, directory, user, params.message_id, {
          emojiName: params.emoji_name,
          emojiCode: params.emoji_code,
          reactionType: params.reaction_type,
        });
      });
      return {};
    },
  }),

  defineEndpoint({
    method: 'DELETE',
    path: '/messages/{message_id}/reactions',
    params: {
      message_id: pathId(),
      emoji_name: str().optional(),
      emoji_code: str().optional(),
      reaction_type: str().optional(),
    },
    async handler(ctx, params) {
      const { engine, user } = ctx;
      await runAction(engine, async (scope) => {
        const directory = await RealmDirectory.load(scope.db);
        await removeReaction(scope.db, scope, directory, user, params.message_id, {
          emojiName: params.emoji_name,
          emojiCode: params.emoji_code,
          reactionType: params.reaction_type,
        });
      });
      return {};
    },
  }),
];
