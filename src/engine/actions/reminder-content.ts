import { badRequest } from '../errors/api-error.ts';
import { charLength, MAX_MESSAGE_LENGTH, MAX_REMINDER_NOTE_LENGTH, trimMessageText } from '../validation/message-limits.ts';
import type { RealmDirectory } from '../directory/realm-directory.ts';
import { dmParticipants } from '../storage/recipients.ts';
import type { MessageRow } from '../storage/rows.ts';
import { messageLinkSyntax, messageUrl, silentMention, truncate, unusedFence } from './message-links.ts';

/** A reminder's note as upstream keeps it: trailing space and leading blank lines dropped, bounded. */
export function normalizeReminderNote(note: string): string {
  const trimmed = trimMessageText(note);
  if (charLength(trimmed) > MAX_REMINDER_NOTE_LENGTH) {
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
  const room = MAX_MESSAGE_LENGTH - charLength(`${content}${fence}quote\n\n${fence}`);
  return `${content}${fence}quote\n${truncate(message.content, room)}\n${fence}`;
}

function listOf(items: string[]): string {
  if (items.length <= 2) return items.join(' and ');
  return `${items.slice(0, -1).join(', ')}, and ${items[items.length - 1]}`;
}
