import { readSnapshot } from '../actions/run-action.ts';
import { type TypingRequest, typingNotice } from '../actions/typing.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { int, intList, oneOf, str } from '../http/param-types.ts';
import { RealmDirectory } from '../lib/realm-directory.ts';

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
    async handler(ctx, params) {
      const request: TypingRequest =
        params.type === 'direct'
          ? { kind: 'direct', op: params.op, to: params.to }
          : { kind: 'stream', op: params.op, streamId: params.stream_id, topic: params.topic };
      const { engine } = ctx;
      // Nothing is written: the notice is built from one snapshot and delivered at once.
      const notice = await readSnapshot(engine, async (db) => typingNotice(db, await RealmDirectory.load(db), ctx.user, request));
      engine.queues.deliver([notice]);
      return {};
    },
  }),
];
