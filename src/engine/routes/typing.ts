import { sendEditTypingNotice, sendTypingNotice, type TypingRequest } from '../actions/typing.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { int, intList, oneOf, pathId, str } from '../http/param-types.ts';

/** POST /typing: a start or stop notification for a direct conversation or a channel topic. */
export const typingEndpoints = [
  defineEndpoint({
    method: 'POST',
    path: '/typing',
    params: {
      type: oneOf(['direct', 'stream', 'channel']).default('direct'),
      op: oneOf(['start', 'stop']),
      to: intList().optional(),
      stream_id: int().optional(),
      topic: str().optional(),
    },
    async write(scope, params) {
      const request: TypingRequest =
        params.type === 'direct'
          ? { kind: 'direct', op: params.op, to: params.to }
          : { kind: 'stream', op: params.op, streamId: params.stream_id, topic: params.topic };
      await sendTypingNotice(scope, request);
      return {};
    },
  }),
  defineEndpoint({
    method: 'POST',
    path: '/messages/{message_id}/typing',
    params: { message_id: pathId(), op: oneOf(['start', 'stop']) },
    async write(scope, params) {
      await sendEditTypingNotice(scope, { messageId: params.message_id, op: params.op });
      return {};
    },
  }),
];
