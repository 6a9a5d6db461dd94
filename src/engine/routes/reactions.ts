import { addReaction, removeReaction } from '../actions/reactions.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { pathId, str } from '../http/param-types.ts';
import { reactionTypeParam } from './emoji-params.ts';

const emojiParams = {
  message_id: pathId(),
  emoji_name: str().optional(),
  emoji_code: str().optional(),
  reaction_type: reactionTypeParam().optional(),
};

const reactionRequest = (params: { message_id: number; emoji_name?: string; emoji_code?: string; reaction_type?: string }) => ({
  messageId: params.message_id,
  emojiName: params.emoji_name,
  emojiCode: params.emoji_code,
  reactionType: params.reaction_type,
});

/** Emoji reactions on a message: POST adds the caller's, DELETE removes it. */
export const reactionEndpoints = [
  defineEndpoint({
    method: 'POST',
    path: '/messages/{message_id}/reactions',
    params: { ...emojiParams, emoji_name: str() },
    async write(scope, params) {
      await addReaction(scope, { ...reactionRequest(params), emojiName: params.emoji_name });
      return {};
    },
  }),
  defineEndpoint({
    method: 'DELETE',
    path: '/messages/{message_id}/reactions',
    params: emojiParams,
    async write(scope, params) {
      await removeReaction(scope, reactionRequest(params));
      return {};
    },
  }),
];
