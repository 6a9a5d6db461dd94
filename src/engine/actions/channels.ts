import { badRequest } from '../errors/api-error.ts';
import { metadataViewerIds } from '../permissions/channel-audience.ts';
import { CHANNEL_GROUP_SETTING_NAMES, CHANNEL_GROUP_SETTINGS, type ChannelGroupSetting } from '../permissions/channel-group-settings.ts';
import { channelDescription, channelExists, checkChannelName } from '../validation/channel-names.ts';
import {
  announcementChannelId,
  checkMayChoosePrivacy,
  checkMaySetRetention,
  checkMaySetTopicsPolicy,
} from '../permissions/channel-permissions.ts';
import { channelToWire } from '../wire/channel-wire.ts';
import { resolveGroupSetting } from '../permissions/group-setting-input.ts';
import { RealmDirectory } from '../directory/realm-directory.ts';
import { recipientFor } from '../storage/recipients.ts';
import { parseRetentionDays } from '../validation/retention-days.ts';
import { renderMessage } from '../markdown/render-message.ts';
import { nextId } from '../storage/database.ts';
import { ROLE_ADMIN, type ChannelRow, type GroupSettingValue, type TopicsPolicy } from '../storage/rows.ts';
import { postAnnouncement, postCreationNotice } from './channel-notices.ts';
import { defaultStreamsNotice } from './default-channels.ts';
import type { CallerScope } from '../services/action-scope.ts';
import { resolvePrincipals } from './subscription-access.ts';
import { subscribeUsers } from './subscriptions.ts';

export interface CreateChannelInput {
  name: string;
  description: string;
  subscriberIds: number[];
  /** The personal color of every subscription to the new channel; absent: picked per user. */
  color?: string;
  announce: boolean;
  inviteOnly: boolean;
  isWebPublic: boolean;
  isDefaultStream: boolean;
  folderId: number | null;
  topicsPolicy: TopicsPolicy;
  historyPublicToSubscribers: boolean | undefined;
  /** As sent: a number of days, `realm_default` or `unlimited`. */
  messageRetentionDays: string | number;
  groupSettings: Partial<Record<ChannelGroupSetting, GroupSettingValue>>;
}

/**
 * Creates a channel (spec 4.3) with exactly `subscriberIds` subscribed, as upstream: the creator
 * only when listed.
 * Emits `stream` create to everyone who may see the channel, the subscription events,
 * `default_streams` for a default channel, then the notification bot's notes: the
 * announcement (with `announce`) and the channel's first message.
 */
export async function createChannel(scope: CallerScope, input: CreateChannelInput): Promise<{ id: number }> {
  const { db, caller: creator } = scope;
  let { directory } = scope;
  const name = checkChannelName(input.name);
  if (directory.channelByName(name)) {
    throw channelExists(name);
  }
  checkMayChoosePrivacy(creator, { inviteOnly: input.inviteOnly, isWebPublic: input.isWebPublic }, directory);
  if (input.isWebPublic && input.inviteOnly) throw badRequest('Invalid parameters');
  if (input.isDefaultStream && creator.role > ROLE_ADMIN) throw badRequest('Insufficient permission');
  if (input.isDefaultStream && input.inviteOnly) throw badRequest('A default channel cannot be private.');
  const retention = parseRetentionDays(input.messageRetentionDays);
  if (retention !== null) checkMaySetRetention(creator);
  checkMaySetTopicsPolicy(creator, input.topicsPolicy, directory);
  if (input.folderId !== null && !(await db.channel_folders.get(input.folderId))) throw badRequest('Invalid channel folder ID');
  const groupSettings = Object.fromEntries(
    CHANNEL_GROUP_SETTING_NAMES.map((setting) => {
      const { allowEveryone, initial } = CHANNEL_GROUP_SETTINGS[setting];
      const requested = input.groupSettings[setting];
      return [setting, requested === undefined ? initial(creator.id) : resolveGroupSetting(requested, setting, allowEveryone, directory)];
    }),
  ) as Record<ChannelGroupSetting, GroupSettingValue>;
  const subscribers = resolvePrincipals(directory, creator, input.subscriberIds);

  const id = await nextId(db, 'channel');
  const description = channelDescription(input.description);
  const channel: ChannelRow = {
    id,
    name,
    name_key: name.toLowerCase(),
    description,
    rendered_description: description === '' ? '' : renderMessage(description, directory.markdownRealm()).html,
    date_created: scope.now,
    creator_id: creator.id,
    invite_only: input.inviteOnly,
    is_web_public: input.isWebPublic,
    // Public channels always share their history; private ones protect it unless asked.
    history_public_to_subscribers: input.inviteOnly ? (input.historyPublicToSubscribers ?? false) : true,
    message_retention_days: retention,
    folder_id: input.folderId,
    topics_policy: input.topicsPolicy,
    is_archived: false,
    recipient_id: await recipientFor(db, `channel:${id}`),
    first_message_id: null,
    ...groupSettings,
  };
  await db.channels.add(channel);
  if (input.isDefaultStream) {
    await db.realm.update(1, { default_channel_ids: [...directory.realm.default_channel_ids, id] });
  }
  directory = await RealmDirectory.load(db);
  const created = directory.channels.get(id)!;

  scope.notify({
    event: {
      type: 'stream',
      op: 'create',
      streams: [channelToWire(created, { subscriberCount: 0, isRecentlyActive: true, weeklyTraffic: null })],
    },
    users: metadataViewerIds(directory, created, subscribers.map((u) => u.id)),
  });
  if (input.isDefaultStream) scope.notify(defaultStreamsNotice(directory));
  const colors = new Map(input.color === undefined ? [] : [[id, input.color]]);
  await subscribeUsers(scope, directory, [created], subscribers, { createdChannelIds: new Set([id]), colors });

  const announcementId = input.announce ? announcementChannelId(directory) : null;
  if (announcementId !== null) {
    await postAnnouncement(scope, directory, creator, directory.channels.get(announcementId)!, created);
  }
  await postCreationNotice(scope, directory, creator, created);
  return { id };
}

