import { readUserStatus, updateUserStatus } from '../actions/user-status.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { bool, pathId, str, VAR } from '../http/param-types.ts';
import { reactionTypeParam } from './emoji-params.ts';

/** Upstream's limit on a status text (after trimming). */
const MAX_STATUS_TEXT_LENGTH = 60;

/** Setting the caller's status, and reading anyone's. */
export const userStatusEndpoints = [
  defineEndpoint({
    method: 'POST',
    path: '/users/me/status',
    auth: 'human',
    params: {
      status_text: str()
        .trim()
        .max(MAX_STATUS_TEXT_LENGTH, { error: `${VAR} is too long (limit: ${MAX_STATUS_TEXT_LENGTH} characters)` })
        .optional(),
      away: bool().optional(),
      emoji_name: str().optional(),
      emoji_code: str().optional(),
      reaction_type: reactionTypeParam().optional(),
    },
    async write(scope, params) {
      await updateUserStatus(scope, {
        away: params.away,
        statusText: params.status_text,
        emojiName: params.emoji_name,
        emojiCode: params.emoji_code,
        reactionType: params.reaction_type,
      });
      return {};
    },
  }),

  defineEndpoint({
    method: 'GET',
    path: '/users/{user_id}/status',
    params: { user_id: pathId() },
    async read(scope, params) {
      return { status: await readUserStatus(scope, params.user_id) };
    },
  }),
];
