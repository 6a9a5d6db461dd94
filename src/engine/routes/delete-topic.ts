import { deleteTopic } from '../actions/delete-topic.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { pathId, str } from '../http/param-types.ts';

/** Deleting a whole topic (administrators). */
export const deleteTopicEndpoints = [
  defineEndpoint({
    method: 'POST',
    path: '/streams/{stream_id}/delete_topic',
    auth: 'admin',
    params: { stream_id: pathId(), topic_name: str() },
    async write(scope, params) {
      return deleteTopic(scope, { channelId: params.stream_id, topicName: params.topic_name });
    },
  }),
];
