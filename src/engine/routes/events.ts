import { badRequest } from '../errors/api-error.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { bool, int, str } from '../http/param-types.ts';

export const eventEndpoints = [
  defineEndpoint({
    method: 'GET',
    path: '/events',
    params: {
      queue_id: str().optional(),
      last_event_id: int().optional(),
      dont_block: bool().default(false),
    },
    async handler(ctx, params) {
      // Upstream reports these two without `var_name`: they are checked by the view, not the parser.
      if (params.queue_id === undefined) throw badRequest("Missing 'queue_id' argument");
      const { queues } = ctx.engine;
      const queue = queues.get(params.queue_id, ctx.user.id);
      if (params.last_event_id === undefined) throw badRequest("Missing 'last_event_id' argument");
      // A client that goes away releases its long-poll at once rather than at the next heartbeat.
      const events = await queues.poll(queue, params.last_event_id, params.dont_block, ctx.request.signal);
      return { events, queue_id: queue.id };
    },
  }),
  defineEndpoint({
    method: 'DELETE',
    path: '/events',
    params: { queue_id: str() },
    async handler(ctx, params) {
      ctx.engine.queues.delete(params.queue_id, ctx.user.id);
      return {};
    },
  }),
];
