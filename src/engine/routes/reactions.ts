import { addReaction, removeReaction } from '../actions/reactions.ts';
import { type ActionScope, runAction } from '../actions/run-action.ts';
import { defineEndpoint, type RequestContext } from '../http/endpoint.ts';
import { pathId, str } from '../http/param-types.ts';
import { RealmDirectory } from '../lib/realm-directory.ts';

const emojiParams = {
  message_id: pathId(),
  emoji_name: str().optional(),
  emoji_code: str().optional(),
  reaction_type: str().optional(),
};

const reactionRequest = (params: { emoji_name?: string; emoji_code?: string; reaction_type?: string }) => ({
  emojiName: params.emoji_name,
  emojiCode: params.emoji_code,
  reactionType: params.reaction_type,
});

/** One reaction action with the realm directory loaded; answers the empty success object. */
async function reactionAction(
  ctx: RequestContext,
  body: (scope: ActionScope, directory: RealmDirectory) => Promise<void>,
): Promise<Record<string, never>> {
  await runAction(ctx.engine, async (scope) => body(scope, await RealmDirectory.load(scope.db)));
  return {};
}

/** Emoji reactions on a message: POST adds the caller's, DELETE removes it. */
export const reactionEndpoints = [
  defineEndpoint({
    method: 'POST',
    path: '/messages/{message_id}/reactions',
    params: { ...emojiParams, emoji_name: str() },
    handler: (ctx, params) =>
      reactionAction(ctx, (scope, directory) =>
        addReaction(scope.db, scope, directory, ctx.user, params.message_id, {
          ...reactionRequest(params),
          emojiName: params.emoji_name,
        }),
      ),
  }),
  defineEndpoint({
    method: 'DELETE',
    path: '/messages/{message_id}/reactions',
    params: emojiParams,
    handler: (ctx, params) =>
      reactionAction(ctx, (scope, directory) =>
        removeReaction(scope.db, scope, directory, ctx.user, params.message_id, reactionRequest(params)),
      ),
  }),
];
