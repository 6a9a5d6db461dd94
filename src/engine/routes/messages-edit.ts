import { deleteMessage } from '../actions/delete-message.ts';
import { editMessage } from '../actions/edit-message.ts';
import { readSnapshot, runAction } from '../actions/run-action.ts';
import { badRequest } from '../http/api-error.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { bool, int, oneOf, pathId, str } from '../http/param-types.ts';
import { displayTopic } from '../lib/message-wire.ts';
import { RealmDirectory } from '../lib/realm-directory.ts';
import { htmlDiff } from '../markdown/html-diff.ts';
import { loadAccessibleMessage } from '../narrow/message-access.ts';
import type { MessageRow } from '../storage/rows.ts';

/**
 * Changing messages: PATCH (content, topic, channel), DELETE, and the edit history.
 * `send_notification_to_old_thread` / `_new_thread` are not declared: no breadcrumb messages
 * are sent, so they come back in `ignored_parameters_unsupported`.
 */
export const messageEditEndpoints = [
  defineEndpoint({
    method: 'PATCH',
    path: '/messages/{message_id}',
    params: {
      message_id: pathId(),
      topic: str().optional(),
      propagate_mode: oneOf(['change_one', 'change_later', 'change_all']).default('change_one'),
      content: str().optional(),
      stream_id: int().optional(),
    },
    aliases: { subject: 'topic' },
    async handler(ctx, params) {
      const { engine, user } = ctx;
      await runAction(engine, async (scope) => {
        const directory = await RealmDirectory.load(scope.db);
        await editMessage(scope.db, scope, directory, user, params.message_id, {
          content: params.content,
          topic: params.topic,
          streamId: params.stream_id,
          propagateMode: params.propagate_mode,
        });
      });
      // Uploads are not modelled, so no edit can detach one.
      return { detached_uploads: [] };
    },
  }),

  defineEndpoint({
    method: 'DELETE',
    path: '/messages/{message_id}',
    params: { message_id: pathId() },
    async handler(ctx, params) {
      const { engine, user } = ctx;
      await runAction(engine, async (scope) => {
        const directory = await RealmDirectory.load(scope.db);
        await deleteMessage(scope.db, scope, directory, user, params.message_id);
      });
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
    async handler(ctx, params) {
      const { engine, user } = ctx;
      return readSnapshot(engine, async (db) => {
        const directory = await RealmDirectory.load(db);
        if (!directory.realm.allow_edit_history) throw badRequest('Message edit history is disabled in this organization');
        const { row } = await loadAccessibleMessage(db, directory, user, params.message_id);
        const topicName = (topic: string) =>
          row.type === 'stream' ? displayTopic(topic, directory, params.allow_empty_topic_name) : topic;
        return { message_history: historySnapshots(row, topicName) };
      });
    },
  }),
];

/**
 * The message as it was after each edit, oldest first (spec 2.4): the stored entries are newest
 * first and record only what changed, so the state is rebuilt walking back from the current one.
 */
function historySnapshots(row: MessageRow, topicName: (topic: string) => string): Record<string, unknown>[] {
  let content = row.content;
  let rendered = row.rendered_content;
  let topic = row.topic;
  const snapshots: Record<string, unknown>[] = [];
  for (const entry of row.edit_history ?? []) {
    const snapshot: Record<string, unknown> = {
      content,
      rendered_content: rendered,
      timestamp: entry.timestamp,
      topic: topicName(topic),
      user_id: entry.user_id,
    };
    if (entry.prev_topic !== undefined) {
      topic = entry.prev_topic;
      snapshot.prev_topic = topicName(topic);
    }
    if (entry.prev_content !== undefined && entry.prev_rendered_content !== undefined) {
      snapshot.prev_content = entry.prev_content;
      snapshot.prev_rendered_content = entry.prev_rendered_content;
      snapshot.content_html_diff = htmlDiff(entry.prev_rendered_content, rendered);
      content = entry.prev_content;
      rendered = entry.prev_rendered_content;
    }
    if (entry.prev_stream !== undefined) {
      snapshot.prev_stream = entry.prev_stream;
      snapshot.stream = entry.stream;
    }
    snapshots.push(snapshot);
  }
  snapshots.push({ content, rendered_content: rendered, timestamp: row.timestamp, topic: topicName(topic), user_id: row.sender_id });
  return snapshots.reverse();
}
