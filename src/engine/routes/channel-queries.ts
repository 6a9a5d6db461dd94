import { channelIdByName, channelSubscriberIds, channelTopics } from '../actions/channel-reads.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { bool, pathId, str } from '../http/param-types.ts';
import { displayTopic } from '../wire/message-wire.ts';

/** Reads about one channel: its subscribers, its topics, its id by name. */
export const channelQueryEndpoints = [
  defineEndpoint({
    method: 'GET',
    path: '/streams/{stream_id}/members',
    params: { stream_id: pathId() },
    async read(scope, params) {
      return { subscribers: await channelSubscriberIds(scope, params.stream_id) };
    },
  }),

  defineEndpoint({
    method: 'GET',
    path: '/users/me/{stream_id}/topics',
    params: { stream_id: pathId(), allow_empty_topic_name: bool().default(false) },
    async read(scope, params) {
      const topics = await channelTopics(scope, params.stream_id);
      return {
        topics: topics.map((t) => ({ name: displayTopic(t.name, scope.directory, params.allow_empty_topic_name), max_id: t.max_id })),
      };
    },
  }),

  defineEndpoint({
    method: 'GET',
    path: '/get_stream_id',
    params: { stream: str() },
    async read(scope, params) {
      return { stream_id: await channelIdByName(scope, params.stream) };
    },
  }),
];
