import { channelIdByName, channelSubscriberIds, channelTopics } from '../actions/channel-reads.ts';
import { channelEmailAddress } from '../actions/channel-email.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { bool, nonNegativeInt, pathId, str } from '../http/param-types.ts';
import { displayTopic } from '../wire/message-wire.ts';

/** Reads about one channel: its subscribers, its topics, its id by name, its incoming-mail address. */
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

  defineEndpoint({
    method: 'GET',
    path: '/streams/{stream_id}/email_address',
    params: { stream_id: pathId(), sender_id: nonNegativeInt().optional() },
    // A write: the first request for a channel, requester and sender makes its token, as upstream's does.
    async write(scope, params) {
      return { email: await channelEmailAddress(scope, params.stream_id, params.sender_id) };
    },
  }),
];
