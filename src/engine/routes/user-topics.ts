import { setLegacyTopicMute, setTopicVisibility, type VisibilityPolicy } from '../actions/user-topics.ts';
import { badRequest } from '../errors/api-error.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { int, intValue, json, oneOf, str, VAR } from '../http/param-types.ts';
import { MAX_TOPIC_LENGTH } from '../validation/message-limits.ts';

/** 0 none, 1 muted, 2 unmuted, 3 followed. */
const visibilityPolicy = () =>
  json(intValue().refine((value): value is VisibilityPolicy => value >= 0 && value <= 3, { error: `Invalid ${VAR}` }));

/** The caller's visibility policy for one topic. */
export const userTopicEndpoints = [
  defineEndpoint({
    method: 'POST',
    path: '/user_topics',
    params: { stream_id: int(), topic: str().max(MAX_TOPIC_LENGTH), visibility_policy: visibilityPolicy() },
    async write(scope, params) {
      await setTopicVisibility(scope, { streamId: params.stream_id, topic: params.topic, policy: params.visibility_policy as VisibilityPolicy });
      return {};
    },
  }),

  defineEndpoint({
    method: 'PATCH',
    path: '/users/me/subscriptions/muted_topics',
    params: { stream_id: int().optional(), stream: str().optional(), topic: str().max(MAX_TOPIC_LENGTH), op: oneOf(['add', 'remove']) },
    async write(scope, params) {
      const { stream_id: id, stream: name } = params;
      if ((id === undefined) === (name === undefined)) {
        throw badRequest('Unsupported parameter combination: stream_id, stream', { parameters: 'stream_id, stream' });
      }
      const channel = id !== undefined ? { id } : { name: name! };
      await setLegacyTopicMute(scope, { channel, topic: params.topic, mute: params.op === 'add' });
      return {};
    },
  }),
];
