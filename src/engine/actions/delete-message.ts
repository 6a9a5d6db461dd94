import type { EngineEvent } from '../events/event-types.ts';
import { badRequest } from '../errors/api-error.ts';
import type { RealmDirectory } from '../directory/realm-directory.ts';
import { channelSubscriberIds } from '../directory/cached-reads.ts';
import { isInGroupSetting } from '../permissions/system-groups.ts';
import { loadAccessibleMessage } from '../narrow/message-access.ts';
import type { RealmDatabase } from '../storage/database.ts';
import type { GroupSettingValue, MessageRow, UserRow } from '../storage/rows.ts';
import { realmPermissionGroup } from '../permissions/realm-permissions.ts';
import type { ActionScope, CallerScope } from '../services/action-scope.ts';
import { channelViewerIds } from '../permissions/channel-access.ts';
import { unlinkDeletedMessages } from './uploads.ts';

/**
 * Who hears about a change to a message (reaction, edit, deletion), as upstream's
 * `event_recipient_ids_for_action_on_messages`: everyone holding a UserMessage row, plus the
 * channel's current subscribers when its history is open to them.
 */
export async function messageAudienceIds(
  db: RealmDatabase,
  directory: RealmDirectory,
  message: MessageRow,
): Promise<number[]> {
  const ids = new Set((await db.user_messages.where('message_id').equals(message.id).toArray()).map((um) => um.user_id));
  if (message.type === 'stream') {
    const channel = directory.channels.get(message.stream_id!);
    if (channel?.history_public_to_subscribers) {
      for (const id of await activeSubscriberIds(db, channel.id)) ids.add(id);
    }
  }
  return [...ids];
}

/** Ids of the channel's current subscribers. */
export async function activeSubscriberIds(db: RealmDatabase, channelId: number): Promise<number[]> {
  return [...(await channelSubscriberIds(db, channelId))];
}

/**
 * Deletes one message for good: the message, everyone's flags for it and its reactions, then
 * tells everyone who could see it.
 */
export async function deleteMessage(scope: CallerScope, messageId: number): Promise<void> {
  const { db, directory, caller: actor } = scope;
  const { row } = await loadAccessibleMessage(db, directory, actor, messageId);
  checkCanDelete(actor, row, directory, scope.now);
  await deleteConversationMessages(scope, directory, [row]);
}

/**
 * Deletes messages of one conversation for good (upstream's `do_delete_messages`): the
 * messages, everyone's flags for them and their reactions; one delete_message event to
 * everyone who could see any of them and, when the channel's first message went, a
 * `first_message_id` update to those who track the channel.
 */
export async function deleteConversationMessages(scope: ActionScope, directory: RealmDirectory, rows: MessageRow[]): Promise<void> {
  const { db } = scope;
  const ids = rows.map((row) => row.id);
  const audience = new Set<number>();
  for (const row of rows) for (const id of await messageAudienceIds(db, directory, row)) audience.add(id);
  await db.user_messages.where('message_id').anyOf(ids).delete();
  await db.reactions.where('message_id').anyOf(ids).delete();
  await db.messages.bulkDelete(ids);
  await unlinkDeletedMessages(db, ids);
  scope.notify({
    event: deleteMessageEvent(rows[0], ids),
    users: [...audience],
    emptyTopicDisplayName: directory.realm.empty_topic_display_name,
  });
  if (rows[0].type === 'stream') await renewFirstMessageId(scope, directory, rows[0].stream_id!, ids);
}

async function renewFirstMessageId(scope: ActionScope, directory: RealmDirectory, channelId: number, deletedIds: number[]): Promise<void> {
  const { db } = scope;
  const channel = await db.channels.get(channelId);
  if (!channel || channel.first_message_id === null || !deletedIds.includes(channel.first_message_id)) return;
  const first = await db.messages.where('[stream_id+id]').between([channelId, 0], [channelId, Infinity]).first();
  const value = first?.id ?? null;
  await db.channels.update(channelId, { first_message_id: value });
  scope.notify({
    event: { type: 'stream', op: 'update', stream_id: channelId, name: channel.name, property: 'first_message_id', value },
    users: channelViewerIds(directory, channel, await activeSubscriberIds(db, channelId)),
  });
}

/** The canonical delete_message event; the finalizer splits it for clients without bulk deletion. */
export function deleteMessageEvent(row: MessageRow, messageIds: number[]): EngineEvent {
  if (row.type === 'private') return { type: 'delete_message', message_ids: messageIds, message_type: 'private' };
  return { type: 'delete_message', message_ids: messageIds, message_type: 'stream', stream_id: row.stream_id, topic: row.topic };
}

/**
 * Upstream's rule: the realm's can_delete_any_message_group, or the channel's, delete anything;
 * otherwise only one's own (or one's bot's) messages, while in the realm's
 * can_delete_own_message_group or the channel's, and within the realm's deletion time limit.
 * A channel's groups add to the realm's; they never take away.
 */
function checkCanDelete(actor: UserRow, row: MessageRow, directory: RealmDirectory, now: number): void {
  const { realm, groups } = directory;
  const channel = row.type === 'stream' ? directory.channels.get(row.stream_id!) : undefined;
  const holds = (realmSetting: GroupSettingValue, channelSetting: GroupSettingValue | undefined) =>
    isInGroupSetting(actor, realmSetting, groups) || (channelSetting !== undefined && isInGroupSetting(actor, channelSetting, groups));
  if (holds(realmPermissionGroup(realm, 'can_delete_any_message_group'), channel?.can_delete_any_message_group)) return;
  const sender = directory.users.get(row.sender_id);
  const ownsMessage = row.sender_id === actor.id || sender?.bot_owner_id === actor.id;
  if (!ownsMessage || !holds(realmPermissionGroup(realm, 'can_delete_own_message_group'), channel?.can_delete_own_message_group)) {
    throw badRequest("You don't have permission to delete this message");
  }
  const limit = directory.realm.message_content_delete_limit_seconds;
  if (limit !== null && now - row.timestamp > limit) {
    throw badRequest('The time limit for deleting this message has passed');
  }
}
