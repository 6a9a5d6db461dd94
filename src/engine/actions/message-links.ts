/**
 * How the notification bot's notes point at and quote a message, as upstream's helpers do:
 * silent mentions, `#**channel>topic@id**` links, message URLs, unused code fences and
 * truncation with upstream's marker.
 */
import { realmUrl } from '../wire/paths.ts';
import type { RealmDirectory } from '../directory/realm-directory.ts';
import type { MessageRow, UserRow } from '../storage/rows.ts';
import { MESSAGE_TRUNCATED_SUFFIX, truncateChars } from '../validation/message-limits.ts';
import { encodeHashComponent } from '../markdown/channel-links.ts';

/** Characters that break the `#**channel>topic@id**` syntax (upstream's topic_link_util). */
const BREAKS_LINK_SYNTAX = /[`>*&[\]]|\$\$/;
const LINK_TEXT_ESCAPES: Record<string, string> = {
  '`': '&#96;',
  '>': '&gt;',
  '*': '&#42;',
  '&': '&amp;',
  $$: '&#36;&#36;',
  '[': '&#91;',
  ']': '&#93;',
};

export const silentMention = (user: UserRow): string => `@_**${user.full_name}|${user.id}**`;

export function truncate(content: string, maxLength: number): string {
  return truncateChars(content, maxLength, MESSAGE_TRUNCATED_SUFFIX);
}

/** A fence of backticks longer than any fence inside the quoted content. */
export function unusedFence(content: string): string {
  let length = 3;
  for (const match of content.matchAll(/^ {0,3}(`{3,})/gm)) length = Math.max(length, match[1].length + 1);
  return '`'.repeat(length);
}

const channelSlug = (id: number, name: string): string => `${id}-${encodeHashComponent(name.replace(/ /g, '-'))}`;

/** Upstream's stream_message_url: a channel message's link at a given channel and topic. */
export function channelMessageUrl(directory: RealmDirectory, channelId: number, topic: string, messageId: number): string {
  const name = directory.channels.get(channelId)?.name ?? '';
  return `${realmUrl(directory.realm)}/#narrow/channel/${channelSlug(channelId, name)}/topic/${encodeHashComponent(topic)}/near/${messageId}`;
}

export function messageUrl(message: MessageRow, directory: RealmDirectory): string {
  if (message.type === 'stream') return channelMessageUrl(directory, message.stream_id!, message.topic, message.id);
  return `${realmUrl(directory.realm)}/#narrow/dm/${message.dm_key}/near/${message.id}`;
}

const escapeLinkText = (text: string) => text.replace(/[`>*&[\]]|\$\$/g, (c) => LINK_TEXT_ESCAPES[c]!);

/** `#**channel>topic**`, or a plain Markdown link when the names would break that syntax (upstream's get_stream_topic_link_syntax). */
export function topicLinkSyntax(channelId: number, channelName: string, topic: string, directory: RealmDirectory): string {
  if (!BREAKS_LINK_SYNTAX.test(channelName) && !BREAKS_LINK_SYNTAX.test(topic)) return `#**${channelName}>${topic}**`;
  const shownTopic = topic === '' ? directory.realm.empty_topic_display_name : topic;
  const link = `#narrow/channel/${channelSlug(channelId, channelName)}/topic/${encodeHashComponent(topic)}`;
  return `[#${escapeLinkText(channelName)} > ${escapeLinkText(shownTopic)}](${link})`;
}

/** `#**channel>topic@id**`, or a plain Markdown link when the names would break that syntax. */
export function messageLinkSyntax(channelId: number, channelName: string, topic: string, messageId: number, directory: RealmDirectory): string {
  if (!BREAKS_LINK_SYNTAX.test(channelName) && !BREAKS_LINK_SYNTAX.test(topic)) {
    return `#**${channelName}>${topic}@${messageId}**`;
  }
  const escape = escapeLinkText;
  const shownTopic = topic === '' ? directory.realm.empty_topic_display_name : topic;
  const link = `#narrow/channel/${channelSlug(channelId, channelName)}/topic/${encodeHashComponent(topic)}/near/${messageId}`;
  return `[#${escape(channelName)} > ${escape(shownTopic)} @ 💬](${link})`;
}
