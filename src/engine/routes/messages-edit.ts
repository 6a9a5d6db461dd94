import { deleteMessage } from '../actions/delete-message.ts';
import { editMessage } from '../actions/edit-message.ts';
import { PROPAGATE_MODES } from '../actions/propagate-mode.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { bool, int, oneOf, pathId, str } from '../http/param-types.ts';
import { messageHistory } from '../narrow/message-history.ts';

/** Changing messages: PATCH (content, topic, channel, with the notification bot's notes on moves), DELETE, and the edit history. */
export const messageEditEndpoints = [
  defineEndpoint({
    method: 'PATCH',
    path: '/messages/{message_id}',
    params: {
      message_id: pathId(),
      topic: str().optional(),
      propagate_mode: oneOf(PROPAGATE_MODES).default('change_one'),
      content: str().optional(),
      stream_id: int().optional(),
      send_notification_to_old_thread: bool().default(false),
      send_notification_to_new_thread: bool().default(true),
    },
    aliases: { subject: 'topic' },
    async write(scope, params) {
      const { detachedUploads } = await editMessage(scope, {
        messageId: params.message_id,
        content: params.content,
        topic: params.topic,
        streamId: params.stream_id,
        propagateMode: params.propagate_mode,
        notifyOldThread: params.send_notification_to_old_thread,
        notifyNewThread: params.send_notification_to_new_thread,
      });
      return { detached_uploads: detachedUploads };
    },
  }),

  defineEndpoint({
    method: 'DELETE',
    path: '/messages/{message_id}',
    params: { message_id: pathId() },
    async write(scope, params) {
      await deleteMessage(scope, params.message_id);
      return {};
    },
  }),

  defineEndpoint({
    method: 'GET',
    path: '/messages/{message_id}/history',
    params: {
      message_id: pathId(),
      allow_empty_topic_name: bool().default(false),
    },
    async read(scope, params) {
      const history = await messageHistory(scope, { messageId: params.message_id, allowEmptyTopicName: params.allow_empty_topic_name });
      return { message_history: history };
    },
  }),
];
