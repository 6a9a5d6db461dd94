import type { GroupSettingValue } from '../storage/rows.ts';
import { GROUP_ADMINISTRATORS, GROUP_EVERYONE, GROUP_NOBODY } from './system-groups.ts';

/**
 * A channel's permission group settings: whether guests (`role:everyone`) may hold each, and
 * the value a new channel gets. Channel administration and adding subscribers start with the
 * creator alone, as upstream's "channel creator" default; the deletion groups start empty, as
 * upstream's: they add to the realm's groups of the same names (actions/delete-message.ts).
 */
export const CHANNEL_GROUP_SETTINGS = {
  can_add_subscribers_group: { allowEveryone: false, initial: (creatorId: number): GroupSettingValue => creatorOnly(creatorId) },
  can_administer_channel_group: { allowEveryone: false, initial: (creatorId: number): GroupSettingValue => creatorOnly(creatorId) },
  can_delete_any_message_group: { allowEveryone: true, initial: (): GroupSettingValue => GROUP_NOBODY },
  can_delete_own_message_group: { allowEveryone: true, initial: (): GroupSettingValue => GROUP_NOBODY },
  can_move_messages_out_of_channel_group: { allowEveryone: true, initial: (): GroupSettingValue => GROUP_NOBODY },
  can_move_messages_within_channel_group: { allowEveryone: true, initial: (): GroupSettingValue => GROUP_NOBODY },
  can_remove_subscribers_group: { allowEveryone: false, initial: (): GroupSettingValue => GROUP_ADMINISTRATORS },
  can_send_message_group: { allowEveryone: true, initial: (): GroupSettingValue => GROUP_EVERYONE },
} as const;

export type ChannelGroupSetting = keyof typeof CHANNEL_GROUP_SETTINGS;

export const CHANNEL_GROUP_SETTING_NAMES = Object.keys(CHANNEL_GROUP_SETTINGS) as ChannelGroupSetting[];

const creatorOnly = (creatorId: number): GroupSettingValue => ({ direct_members: [creatorId], direct_subgroups: [] });
