import type { Notice } from '../events/event-types.ts';
import type { RealmDirectory } from '../directory/realm-directory.ts';
import { badRequest } from '../errors/api-error.ts';
import { canReadChannel } from '../permissions/channel-access.ts';
import type { CallerScope } from '../services/action-scope.ts';
import { ROLE_GUEST, type ChannelRow } from '../storage/rows.ts';

/** The realm's default channels (`ids` when they just changed) as `default_streams` announces them to every member (not guests). */
export function defaultStreamsNotice(directory: RealmDirectory, ids: readonly number[] = directory.realm.default_channel_ids): Notice {
  const members = [...directory.users.values()].filter((u) => u.is_active && !u.is_system_bot && u.role !== ROLE_GUEST);
  return {
    event: { type: 'default_streams', default_streams: [...ids] },
    users: members.map((u) => u.id),
  };
}

/** POST /default_streams: a public channel the caller can read joins the defaults (already one: nothing happens). */
export async function addDefaultChannel(scope: CallerScope, channelId: number): Promise<void> {
  const channel = await accessibleChannel(scope, channelId);
  if (channel.invite_only) throw badRequest('Private channels cannot be made default.');
  const ids = scope.directory.realm.default_channel_ids;
  if (ids.includes(channelId)) return;
  await setDefaultChannels(scope, [...ids, channelId]);
}

/** DELETE /default_streams: the channel leaves the defaults; upstream announces the list even when it was not one. */
export async function removeDefaultChannel(scope: CallerScope, channelId: number): Promise<void> {
  await accessibleChannel(scope, channelId);
  await setDefaultChannels(scope, scope.directory.realm.default_channel_ids.filter((id) => id !== channelId));
}

async function setDefaultChannels(scope: CallerScope, ids: number[]): Promise<void> {
  await scope.db.realm.update(1, { default_channel_ids: ids });
  scope.notify(defaultStreamsNotice(scope.directory, ids));
}

/** Upstream's access_stream_by_id: a live channel whose content the caller may read, else "Invalid channel ID". */
async function accessibleChannel(scope: CallerScope, channelId: number): Promise<ChannelRow> {
  const channel = scope.directory.channels.get(channelId);
  const subscribed = (await scope.db.subscriptions.get([scope.caller.id, channelId]))?.active === 1;
  if (!channel || channel.is_archived || !canReadChannel(scope.caller, channel, subscribed)) throw badRequest('Invalid channel ID');
  return channel;
}
