import { messageRenderOptions } from '../settings/user-settings.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { str } from '../http/param-types.ts';
import { MAX_MESSAGE_LENGTH } from '../validation/message-limits.ts';
import { renderMessage } from '../markdown/render-message.ts';

/**
 * Markdown rendered as a sent message's would be (mentions, channel links, emoji, linkifiers),
 * stored nowhere: compose previews. As upstream, content past the limit is refused here rather
 * than truncated as a send does, and the content is rendered as given.
 */
export const messageRenderEndpoints = [
  defineEndpoint({
    method: 'POST',
    path: '/messages/render',
    params: { content: str().max(MAX_MESSAGE_LENGTH) },
    async read(scope, params) {
      return { rendered: renderMessage(params.content, scope.directory.markdownRealm(), messageRenderOptions(scope.caller)).html };
    },
  }),
];
