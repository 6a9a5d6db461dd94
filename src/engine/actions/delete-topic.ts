/**
 * POST /streams/{stream_id}/delete_topic: an administrator deletes every message of a topic
 * they can read, newest first in upstream's batches of 100 (one delete_message event each).
 * Upstream commits batch by batch and answers `complete: false` when its time runs out; here
 * the whole topic goes in the request's one transaction, so the answer is always complete.
 */
import { badRequest } from '../errors/api-error.ts';
import { canReadChannel } from '../permissions/channel-access.ts';
import type { MessageRow } from '../storage/rows.ts';
import type { CallerScope } from '../services/action-scope.ts';
import { deleteConversationMessages } from './delete-message.ts';

const DELETE_BATCH_SIZE = 100;

export async function deleteTopic(scope: CallerScope, input: { channelId: number; topicName: string }): Promise<{ complete: boolean }> {
  const { db, directory, caller } = scope;
  const channel = directory.channels.get(input.channelId);
  const subscribed = (await db.subscriptions.get([caller.id, input.channelId]))?.active === 1;
  if (!channel || channel.is_archived || !canReadChannel(caller, channel, subscribed)) throw badRequest('Invalid channel ID');
  const topic = input.topicName === directory.realm.empty_topic_display_name ? '' : input.topicName;
  const key = topic.toLowerCase();

  let messages: MessageRow[] = await db.messages.where('[stream_id+topic_key+id]').between([channel.id, key, 0], [channel.id, key, Infinity]).toArray();
  // Without shared history, only the messages the caller received can be deleted.
  if (!channel.history_public_to_subscribers) {
    const held = await db.user_messages.bulkGet(messages.map((m): [number, number] => [caller.id, m.id]));
    messages = messages.filter((_, i) => held[i] !== undefined);
  }
  messages.reverse();
  for (let start = 0; start < messages.length; start += DELETE_BATCH_SIZE) {
    await deleteConversationMessages(scope, directory, messages.slice(start, start + DELETE_BATCH_SIZE));
  }
  return { complete: true };
}
