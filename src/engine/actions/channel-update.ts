import { Dexie } from 'dexie';
import { badRequest } from '../errors/api-error.ts';
import { checkCanAdministerChannel, hasContentAccess, activeSubscriberIds, metadataViewerIds } from '../permissions/channel-audience.ts';
import { CHANNEL_GROUP_SETTINGS, CHANNEL_GROUP_SETTING_NAMES, type ChannelGroupSetting } from '../permissions/channel-group-settings.ts';
import { channelDescription, channelExists, checkChannelName } from '../validation/channel-names.ts';
import { checkMayChoosePrivacy, checkMaySetRetention, checkMaySetTopicsPolicy } from '../permissions/channel-permissions.ts';
import { channelToWire, groupSettingToWire, streamDeleteEvent } from '../wire/channel-wire.ts';
import { expectGroupSetting, normalizeGroupSetting, resolveGroupSetting, sameGroupSetting } from '../permissions/group-setting-input.ts';
import { RealmDirectory } from '../directory/realm-directory.ts';
import { parseRetentionDays } from '../validation/retention-days.ts';
import { loadChannelStats } from '../wire/channel-stats.ts';
import { renderMessage } from '../markdown/render-message.ts';
import type { RealmDatabase } from '../storage/database.ts';
import { ROLE_ADMIN, type ChannelRow, type GroupSettingValue, type TopicsPolicy, type UserRow } from '../storage/rows.ts';
import { defaultStreamsNotice } from './default-channels.ts';
import type { ActionScope, CallerScope } from '../services/action-scope.ts';

export interface GroupSettingChange {
  new: GroupSettingValue;
  old?: GroupSettingValue;
}

/** What PATCH /streams/{stream_id} asks for; absent fields stay as they are. */
export interface ChannelChanges {
  newName?: string;
  description?: string;
  isPrivate?: boolean;
  isWebPublic?: boolean;
  historyPublicToSubscribers?: boolean;
  isDefaultStream?: boolean;
  messageRetentionDays?: string | number;
  /** null: out of any folder. */
  folderId?: number | null;
  topicsPolicy?: TopicsPolicy;
  groupSettings: Partial<Record<ChannelGroupSetting, GroupSettingChange>>;
}

/**
 * Changes a channel's settings (organization administrators and the channel's
 * can_administer_channel_group). Every change is checked before anything is written; then
 * each changed property gets its `stream` `update` event, in upstream's order, and users who
 * gain or lose sight of the channel get `stream` create or delete.
 */
export async function updateChannel(scope: CallerScope, input: { channelId: number; changes: ChannelChanges }): Promise<void> {
  const { db, directory, caller: user } = scope;
  const { channelId, changes } = input;
  const channel = directory.channels.get(channelId);
  if (!channel) throw badRequest('Invalid channel ID');
  const subscribed = (await db.subscriptions.get([user.id, channelId]))?.active === 1;
  checkCanAdministerChannel(user, channel, subscribed, directory);

  const next: ChannelRow = { ...channel, ...checkedPrivacy(directory, user, channel, subscribed, changes) };
  const isDefault = changes.isDefaultStream ?? directory.realm.default_channel_ids.includes(channelId);
  if (next.invite_only && isDefault) throw badRequest('A default channel cannot be private.');
  if (changes.isDefaultStream !== undefined && user.role > ROLE_ADMIN) {
    throw badRequest('You do not have permission to change default channels.');
  }
  if (changes.messageRetentionDays !== undefined) {
    checkMaySetRetention(user);
    next.message_retention_days = parseRetentionDays(changes.messageRetentionDays);
  }
  if (changes.topicsPolicy !== undefined) {
    checkMaySetTopicsPolicy(user, changes.topicsPolicy, directory);
    if (changes.topicsPolicy === 'empty_topic_only' && (await hasNamedTopics(db, channelId))) {
      const emptyTopic = directory.realm.empty_topic_display_name;
      throw badRequest(
        `To enable this configuration, all messages in this channel must be in the "${emptyTopic}" topic. Consider renaming or deleting other topics.`,
      );
    }
    next.topics_policy = changes.topicsPolicy;
  }
  if (changes.description !== undefined) {
    next.description = channelDescription(changes.description);
    next.rendered_description = next.description === '' ? '' : renderMessage(next.description, directory.markdownRealm()).html;
  }
  if (changes.newName !== undefined) next.name = checkedName(directory, channel, changes.newName);
  next.name_key = next.name.toLowerCase();
  if (changes.folderId !== undefined) {
    if (changes.folderId !== null && !(await db.channel_folders.get(changes.folderId))) throw badRequest('Invalid channel folder ID');
    next.folder_id = changes.folderId;
  }
  for (const setting of CHANNEL_GROUP_SETTING_NAMES) {
    const change = changes.groupSettings[setting];
    if (!change) continue;
    expectGroupSetting(channel[setting], change.old === undefined ? undefined : normalizeGroupSetting(change.old));
    next[setting] = resolveGroupSetting(change.new, setting, CHANNEL_GROUP_SETTINGS[setting].allowEveryone, directory);
  }

  await db.channels.put(next);
  const defaultsChanged = isDefault !== directory.realm.default_channel_ids.includes(channelId);
  if (defaultsChanged) {
    const ids = directory.realm.default_channel_ids.filter((id) => id !== channelId);
    await db.realm.update(1, { default_channel_ids: isDefault ? [...ids, channelId] : ids });
  }
  await notifyChannelChanges(scope, channel, next, defaultsChanged);
}

/** The privacy fields asked for, checked as upstream does (a web-public channel is public and shares its history). */
function checkedPrivacy(
  directory: RealmDirectory,
  user: UserRow,
  channel: ChannelRow,
  subscribed: boolean,
  changes: ChannelChanges,
): Pick<ChannelRow, 'invite_only' | 'is_web_public' | 'history_public_to_subscribers'> {
  const inviteOnly = changes.isPrivate ?? channel.invite_only;
  const isWebPublic = changes.isWebPublic ?? channel.is_web_public;
  const history = changes.historyPublicToSubscribers ?? (changes.isPrivate !== undefined ? !changes.isPrivate : channel.history_public_to_subscribers);
  if ((isWebPublic && (!history || inviteOnly)) || (!inviteOnly && !history)) throw badRequest('Invalid parameters');
  if (changes.isPrivate !== undefined) {
    if (!hasContentAccess(user, channel, subscribed)) throw badRequest('Channel content access is required.');
    checkMayChoosePrivacy(user, { inviteOnly, isWebPublic: false }, directory);
  }
  if (changes.isWebPublic === true) checkMayChoosePrivacy(user, { inviteOnly, isWebPublic: true }, directory);
  return { invite_only: inviteOnly, is_web_public: isWebPublic, history_public_to_subscribers: history };
}

function checkedName(directory: RealmDirectory, channel: ChannelRow, raw: string): string {
  const name = raw.trim();
  if (name === channel.name) throw badRequest('Channel already has that name.');
  const checked = checkChannelName(name);
  // Changing only the case of the name keeps it free.
  if (checked.toLowerCase() !== channel.name_key && directory.channelByName(checked)) {
    throw channelExists(checked);
  }
  return checked;
}

/** Whether any message of the channel has a named (non-empty) topic; walks the topic index past the empty topic. */
async function hasNamedTopics(db: RealmDatabase, channelId: number): Promise<boolean> {
  const named = await db.messages
    .where('[stream_id+topic_key+id]')
    .between([channelId, '', Dexie.maxKey], [channelId, Dexie.maxKey], false, true)
    .first();
  return named !== undefined;
}

/**
 * The events of a channel's changed settings, already written: one `stream` update per changed
 * property to who saw and still sees it, `stream` create or delete to who gained or lost sight
 * of it. A replica emits them too, from the rows before and after a pull.
 */
export async function notifyChannelChanges(scope: ActionScope, before: ChannelRow, after: ChannelRow, defaultsChanged: boolean): Promise<void> {
  const directory = await RealmDirectory.load(scope.db);
  const subscriberIds = await activeSubscriberIds(scope.db, directory, after.id);
  const saw = new Set(metadataViewerIds(directory, before, subscriberIds));
  const sees = metadataViewerIds(directory, after, subscriberIds);
  const kept = sees.filter((id) => saw.has(id));
  const gained = sees.filter((id) => !saw.has(id));
  const lost = [...saw].filter((id) => !sees.includes(id));

  const update = (property: string, value: unknown, name: string, extra: Record<string, unknown> = {}) =>
    scope.notify({ event: { type: 'stream', op: 'update', stream_id: after.id, name, property, value, ...extra }, users: kept });

  if (before.invite_only !== after.invite_only) {
    update('invite_only', after.invite_only, before.name, {
      history_public_to_subscribers: after.history_public_to_subscribers,
      is_web_public: after.is_web_public,
    });
  }
  if (before.history_public_to_subscribers !== after.history_public_to_subscribers) {
    update('history_public_to_subscribers', after.history_public_to_subscribers, before.name);
  }
  if (before.is_web_public !== after.is_web_public) update('is_web_public', after.is_web_public, before.name);
  if (defaultsChanged) scope.notify(defaultStreamsNotice(directory));
  if (before.message_retention_days !== after.message_retention_days) {
    update('message_retention_days', after.message_retention_days, before.name);
  }
  if (before.topics_policy !== after.topics_policy) update('topics_policy', after.topics_policy, before.name);
  if (before.description !== after.description) {
    update('description', after.description, before.name, { rendered_description: after.rendered_description });
  }
  if (before.name !== after.name) update('name', after.name, before.name);
  if (before.folder_id !== after.folder_id) update('folder_id', after.folder_id, after.name);
  for (const setting of CHANNEL_GROUP_SETTING_NAMES) {
    if (!sameGroupSetting(before[setting], after[setting])) update(setting, groupSettingToWire(after[setting]), after.name);
  }

  if (gained.length === 0 && lost.length === 0) return;
  const stats = await loadChannelStats(scope.db, [after], new Map([[after.id, subscriberIds]]), scope.now);
  const wire = channelToWire(after, stats.get(after.id)!);
  if (gained.length > 0) scope.notify({ event: { type: 'stream', op: 'create', streams: [wire] }, users: gained });
  if (lost.length > 0) scope.notify({ event: streamDeleteEvent([wire]), users: lost });
}
