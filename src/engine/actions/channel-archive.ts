import { badRequest } from '../errors/api-error.ts';
import { activeSubscriberIds, checkCanAdministerChannel, metadataViewerIds } from '../permissions/channel-audience.ts';
import { RealmDirectory } from '../directory/realm-directory.ts';
import { postArchiveNotice } from './channel-notices.ts';
import { defaultStreamsNotice } from './default-channels.ts';
import type { ActionScope, CallerScope } from '../services/action-scope.ts';
import type { Notice } from '../events/event-types.ts';
import type { ChannelRow } from '../storage/rows.ts';
import { loadChannelWires } from '../wire/channel-stats.ts';

/**
 * Archives a channel (DELETE /streams/{stream_id}): it keeps its messages and subscriptions
 * but takes no new messages, and stops being a default channel. The notification bot leaves a
 * note in it first. Everyone who could see the channel gets `stream` `update` `is_archived`,
 * which clients without `archived_channels` receive as `stream` `delete`.
 */
export async function archiveChannel(scope: CallerScope, channelId: number): Promise<void> {
  const { db, caller: user } = scope;
  let { directory } = scope;
  const channel = directory.channels.get(channelId);
  if (!channel) throw badRequest('Invalid channel ID');
  const subscribed = (await db.subscriptions.get([user.id, channelId]))?.active === 1;
  checkCanAdministerChannel(user, channel, subscribed, directory);
  if (channel.is_archived) throw badRequest('Channel is already deactivated');

  const viewers = metadataViewerIds(directory, channel, await activeSubscriberIds(db, directory, channelId));
  await postArchiveNotice(scope, directory, user, channel);
  await db.channels.update(channelId, { is_archived: true });
  const wasDefault = directory.realm.default_channel_ids.includes(channelId);
  if (wasDefault) {
    await db.realm.update(1, { default_channel_ids: directory.realm.default_channel_ids.filter((id) => id !== channelId) });
    directory = await RealmDirectory.load(db);
    scope.notify(defaultStreamsNotice(directory));
  }
  scope.notify(await archivedNotice(scope, directory, { ...channel, is_archived: true }, viewers));
}

/** The `stream` update `is_archived` of an archived channel, with the object for the queues that get `delete` instead. */
export async function archivedNotice(scope: ActionScope, directory: RealmDirectory, channel: ChannelRow, viewers: readonly number[]): Promise<Notice> {
  const [archivedChannel] = await loadChannelWires(scope.db, directory.users, [channel], scope.now);
  return {
    event: { type: 'stream', op: 'update', stream_id: channel.id, name: channel.name, property: 'is_archived', value: true },
    users: viewers,
    archivedChannel,
  };
}
