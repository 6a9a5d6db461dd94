import type { ReadScope } from '../services/action-scope.ts';
import { badRequest } from '../errors/api-error.ts';
import { displayTopic } from '../wire/message-wire.ts';
import { htmlDiff } from '../markdown/html-diff.ts';
import type { MessageRow } from '../storage/rows.ts';
import { loadAccessibleMessage } from './message-access.ts';

export interface HistoryRequest {
  messageId: number;
  allowEmptyTopicName: boolean;
}

/** A message's edit history as the caller may see it (GET /messages/{id}/history). */
export async function messageHistory(scope: ReadScope, request: HistoryRequest): Promise<Record<string, unknown>[]> {
  const { db, directory, caller } = scope;
  if (!directory.realm.allow_edit_history) throw badRequest('Message edit history is disabled in this organization');
  const { row } = await loadAccessibleMessage(db, directory, caller, request.messageId);
  const topicName = (topic: string) =>
    row.type === 'stream' ? displayTopic(topic, directory, request.allowEmptyTopicName) : topic;
  return historySnapshots(row, topicName);
}

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
