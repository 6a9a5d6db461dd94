import { badRequest } from '../errors/api-error.ts';
import { realmUrl } from '../wire/paths.ts';
import { MAX_MESSAGE_LENGTH, MAX_REMINDER_NOTE_LENGTH, trimMessageText } from '../validation/message-limits.ts';
import type { RealmDirectory } from '../directory/realm-directory.ts';
import { dmParticipants } from '../storage/recipients.ts';
import type { MessageRow, UserRow } from '../storage/rows.ts';

const TRUNCATED_SUFFIX = '\n[message truncated]';
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

/** A reminder's note as upstream keeps it: trailing space and leading blank lines dropped, bounded. */
export function normalizeReminderNote(note: string): string {
  const trimmed = trimMessageText(note);
  if (trimmed.length > MAX_REMINDER_NOTE_LENGTH) {
    throw badRequest(`Maximum reminder note length: ${MAX_REMINDER_NOTE_LENGTH} characters`);
  }
  return trimmed;
}

/**
 * The text Notification Bot sends for a reminder (upstream's get_reminder_formatted_content):
 * what the reminder is about, who said it where, and the message quoted, cut to fit the
 * message length limit.
 */
export function reminderContent(message: MessageRow, directory: RealmDirectory, note: string): string {
  const sender = directory.user(message.sender_id);
  const mention = silentMention(sender);
  const url = messageUrl(message, directory);
  let content: string;
  if (message.type === 'stream') {
    const channel = directory.channels.get(message.stream_id!);
    const where = messageLinkSyntax(message.stream_id!, channel?.name ?? '', message.topic, message.id, directory);
    content = note
      ? `You requested a reminder for the following message. Note:\n > ${note}`
      : 'You requested a reminder for the following message.';
    content += `\n\n${mention} [said](${url}) in ${where}:`;
  } else {
    const others = dmParticipants(message.dm_key!).filter((id) => id !== message.sender_id);
    const recipients = (others.length > 0 ? others : [message.sender_id]).map((id) => directory.user(id));
    content = note
      ? `You requested a reminder for the following direct message. Note:\n > ${note}`
      : 'You requested a reminder for the following direct message.';
    content += `\n\n${mention} [said](${url}) to ${listOf(recipients.map(silentMention))}:`;
  }
  content += '\n';
  const fence = unusedFence(message.content);
  const room = MAX_MESSAGE_LENGTH - (content.length + `${fence}quote\n\n${fence}`.length);
  return `${content}${fence}quote\n${truncate(message.content, room)}\n${fence}`;
}

const silentMention = (user: UserRow): string => `@_**${user.full_name}|${user.id}**`;

function listOf(items: string[]): string {
  if (items.length <= 2) return items.join(' and ');
  return `${items.slice(0, -1).join(', ')}, and ${items[items.length - 1]}`;
}

function truncate(content: string, maxLength: number): string {
  if (content.length <= maxLength) return content;
  return content.slice(0, maxLength - TRUNCATED_SUFFIX.length) + TRUNCATED_SUFFIX;
}

/** A fence of backticks longer than any fence inside the quoted content. */
function unusedFence(content: string): string {
  let length = 3;
  for (const match of content.matchAll(/^ {0,3}(`{3,})/gm)) length = Math.max(length, match[1].length + 1);
  return '`'.repeat(length);
}

/** Upstream's URL hash encoding: percent-encoding with "." in place of "%". */
function encodeHashComponent(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/\./g, '%2E')
    .replace(/%/g, '.');
}

const channelSlug = (id: number, name: string): string => `${id}-${encodeHashComponent(name.replace(/ /g, '-'))}`;

function messageUrl(message: MessageRow, directory: RealmDirectory): string {
  const base = `${realmUrl(directory.realm)}/#narrow`;
  if (message.type === 'stream') {
    const name = directory.channels.get(message.stream_id!)?.name ?? '';
    return `${base}/channel/${channelSlug(message.stream_id!, name)}/topic/${encodeHashComponent(message.topic)}/near/${message.id}`;
  }
  return `${base}/dm/${message.dm_key}/near/${message.id}`;
}

/** `#**channel>topic@id**`, or a plain Markdown link when the names would break that syntax. */
function messageLinkSyntax(channelId: number, channelName: string, topic: string, messageId: number, directory: RealmDirectory): string {
  if (!BREAKS_LINK_SYNTAX.test(channelName) && !BREAKS_LINK_SYNTAX.test(topic)) {
    return `#**${channelName}>${topic}@${messageId}**`;
  }
  const escape = (text: string) => text.replace(/[`>*&[\]]|\$\$/g, (c) => LINK_TEXT_ESCAPES[c]);
  const shownTopic = topic === '' ? directory.realm.empty_topic_display_name : topic;
  const link = `#narrow/channel/${channelSlug(channelId, channelName)}/topic/${encodeHashComponent(topic)}/near/${messageId}`;
  return `[#${escape(channelName)} > ${escape(shownTopic)} @ 💬](${link})`;
}
