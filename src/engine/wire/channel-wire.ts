import type { ChannelRow, GroupSettingValue } from '../storage/rows.ts';
import { GROUP_ADMINISTRATORS, GROUP_EVERYONE, GROUP_FULL_MEMBERS, GROUP_MODERATORS } from '../permissions/system-groups.ts';

/** Figures about a channel that come from its subscriptions and messages, not its row. */
export interface ChannelStats {
  subscriberCount: number;
  isRecentlyActive: boolean;
  /** null: the channel is too new for an estimate. */
  weeklyTraffic: number | null;
}

/** The deprecated stream_post_policy values, read off can_send_message_group as upstream does. */
const POST_POLICY_BY_GROUP = new Map<number, number>([
  [GROUP_EVERYONE, 1],
  [GROUP_ADMINISTRATORS, 2],
  [GROUP_FULL_MEMBERS, 3],
  [GROUP_MODERATORS, 4],
]);
const POST_POLICY_ADMINS = 2;

function streamPostPolicy(canSendMessageGroup: GroupSettingValue): number {
  return typeof canSendMessageGroup === 'number' ? (POST_POLICY_BY_GROUP.get(canSendMessageGroup) ?? 1) : 1;
}

/** A copy, so that callers may not alias a stored row's value. */
export function groupSettingToWire(value: GroupSettingValue): GroupSettingValue {
  return typeof value === 'number'
    ? value
    : { direct_members: [...value.direct_members], direct_subgroups: [...value.direct_subgroups] };
}

/** The channel object of GET /streams, /register `streams` and stream events. */
export function channelToWire(channel: ChannelRow, stats: ChannelStats): Record<string, unknown> {
  const postPolicy = streamPostPolicy(channel.can_send_message_group);
  return {
    stream_id: channel.id,
    name: channel.name,
    is_archived: channel.is_archived,
    description: channel.description,
    rendered_description: channel.rendered_description,
    date_created: channel.date_created,
    creator_id: channel.creator_id,
    invite_only: channel.invite_only,
    is_web_public: channel.is_web_public,
    stream_post_policy: postPolicy,
    is_announcement_only: postPolicy === POST_POLICY_ADMINS,
    message_retention_days: channel.message_retention_days,
    history_public_to_subscribers: channel.history_public_to_subscribers,
    first_message_id: channel.first_message_id,
    folder_id: channel.folder_id,
    topics_policy: channel.topics_policy,
    is_recently_active: stats.isRecentlyActive,
    stream_weekly_traffic: stats.weeklyTraffic,
    subscriber_count: stats.subscriberCount,
    can_add_subscribers_group: groupSettingToWire(channel.can_add_subscribers_group),
    can_remove_subscribers_group: groupSettingToWire(channel.can_remove_subscribers_group),
    can_administer_channel_group: groupSettingToWire(channel.can_administer_channel_group),
    can_send_message_group: groupSettingToWire(channel.can_send_message_group),
    can_delete_any_message_group: groupSettingToWire(channel.can_delete_any_message_group),
    can_delete_own_message_group: groupSettingToWire(channel.can_delete_own_message_group),
    can_move_messages_out_of_channel_group: groupSettingToWire(channel.can_move_messages_out_of_channel_group),
    can_move_messages_within_channel_group: groupSettingToWire(channel.can_move_messages_within_channel_group),
  };
}

/** Upstream's `stream` `delete` event: the channels as full objects, and their ids (the newer form). */
export function streamDeleteEvent(channels: readonly Record<string, unknown>[]): { type: 'stream'; op: 'delete'; streams: Record<string, unknown>[]; stream_ids: number[] } {
  return { type: 'stream', op: 'delete', streams: [...channels], stream_ids: channels.map((c) => c.stream_id as number) };
}
