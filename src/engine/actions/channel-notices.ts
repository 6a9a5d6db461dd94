import type { RealmDirectory } from '../directory/realm-directory.ts';
import type { ChannelRow, UserRow } from '../storage/rows.ts';
import type { ActionScope } from '../services/action-scope.ts';
import { sendMessage } from './send-message.ts';

/** Upstream's topic for the notification bot's notes about a channel. */
const CHANNEL_EVENTS_TOPIC = 'channel events';
const NEW_CHANNELS_TOPIC = 'new channels';
/** The client name upstream records for server-generated messages. */
const INTERNAL_CLIENT = 'Internal';

const silentMention = (user: UserRow) => `@_**${user.full_name}|${user.id}**`;
const channelLink = (channel: ChannelRow) => `#**${channel.name}**`;

function privacyLabel(channel: ChannelRow): string {
  if (channel.is_web_public) return 'Web-public';
  if (!channel.invite_only) return 'Public';
  return channel.history_public_to_subscribers ? 'Private, shared history' : 'Private, protected history';
}

/**
 * Posts as the realm's notification bot, marked read for the user whose action caused it (as
 * upstream does). Nothing is posted in a realm without a notification bot.
 */
async function postNotice(
  scope: ActionScope,
  directory: RealmDirectory,
  actor: UserRow,
  channel: ChannelRow,
  topic: string,
  content: string,
): Promise<void> {
  const botId = directory.realm.notification_bot_id;
  const bot = botId === null ? undefined : directory.users.get(botId);
  if (!bot) return;
  await sendMessage(scope, directory, {
    sender: bot,
    to: { kind: 'channel', channel: { id: channel.id }, topic },
    content,
    client: INTERNAL_CLIENT,
    readBySender: false,
    readBy: [actor.id],
  });
}

/** Where a channel's own notes go: "channel events", or the empty topic where named topics are not allowed. */
const channelEventsTopic = (channel: ChannelRow) => (channel.topics_policy === 'empty_topic_only' ? '' : CHANNEL_EVENTS_TOPIC);

/** The first message of a new channel: who created it, how private it is, and its description. */
export function postCreationNotice(scope: ActionScope, directory: RealmDirectory, creator: UserRow, channel: ChannelRow): Promise<void> {
  const description = channel.description === '' ? '*No description.*' : channel.description;
  const content = `**${privacyLabel(channel)}** channel created by ${silentMention(creator)}. **Description:**\n\`\`\`\` quote\n${description}\n\`\`\`\``;
  return postNotice(scope, directory, creator, channel, channelEventsTopic(channel), content);
}

/** The announcement of a new channel in the realm's announcement channel (`announce`). */
export function postAnnouncement(
  scope: ActionScope,
  directory: RealmDirectory,
  creator: UserRow,
  announcementChannel: ChannelRow,
  channel: ChannelRow,
): Promise<void> {
  const topic = announcementChannel.topics_policy === 'empty_topic_only' ? '' : NEW_CHANNELS_TOPIC;
  return postNotice(scope, directory, creator, announcementChannel, topic, `${silentMention(creator)} created a new channel ${channelLink(channel)}.`);
}

/** The note left in a channel as it is archived. */
export function postArchiveNotice(scope: ActionScope, directory: RealmDirectory, actor: UserRow, channel: ChannelRow): Promise<void> {
  return postNotice(scope, directory, actor, channel, channelEventsTopic(channel), `Channel ${channelLink(channel)} has been archived.`);
}
