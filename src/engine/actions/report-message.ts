/**
 * POST /messages/{message_id}/report, upstream's message reports: the reporter's reason and
 * description and the message quoted, posted by the notification bot to the realm's moderation
 * request channel in the topic "{name} moderation" (the empty topic where the channel allows
 * only that). Refused while the realm has no such channel.
 */
import { badRequest } from '../errors/api-error.ts';
import { loadAccessibleMessage } from '../narrow/message-access.ts';
import type { CallerScope } from '../services/action-scope.ts';
import { dmParticipants } from '../storage/recipients.ts';
import type { MessageRow, UserRow } from '../storage/rows.ts';
import { MAX_MESSAGE_LENGTH } from '../validation/message-limits.ts';
import type { RealmDirectory } from '../directory/realm-directory.ts';
import { messageLinkSyntax, messageUrl, silentMention, truncate, unusedFence } from './message-links.ts';
import { sendMessage } from './send-message.ts';

/** Upstream's report types and the words the report shows for each. */
export const REPORT_TYPES = {
  spam: 'Spam',
  harassment: 'Harassment',
  inappropriate: 'Inappropriate content',
  norms: 'Violates community norms',
  other: 'Other reason',
} as const;
export type ReportType = keyof typeof REPORT_TYPES;
export const MAX_REPORT_DESCRIPTION_LENGTH = 1000;
/** Room left for the quoted message once the description and the rest of the note fit. */
const MAX_REPORTED_SNIPPET_LENGTH = MAX_MESSAGE_LENGTH - MAX_REPORT_DESCRIPTION_LENGTH - 500;

export async function reportMessage(
  scope: CallerScope,
  { messageId, reportType, description }: { messageId: number; reportType: ReportType; description: string },
): Promise<void> {
  const { db, directory, caller } = scope;
  if (reportType === 'other' && description === '') throw badRequest('An explanation is required.');
  const channelId = directory.realm.moderation_request_channel_id;
  const channel = channelId === undefined || channelId === null ? undefined : directory.channels.get(channelId);
  if (!channel) throw badRequest('Message reporting is not enabled in this organization.');
  const { row } = await loadAccessibleMessage(db, directory, caller, messageId);
  const reported = directory.user(row.sender_id);
  const bot = directory.realm.notification_bot_id === null ? undefined : directory.users.get(directory.realm.notification_bot_id);
  if (!bot) return;
  await sendMessage(scope, directory, {
    sender: bot,
    to: { kind: 'channel', channel: { id: channel.id }, topic: channel.topics_policy === 'empty_topic_only' ? '' : `${reported.full_name} moderation` },
    content: reportContent(row, directory, caller, REPORT_TYPES[reportType], description),
    client: 'Internal',
    readBySender: false,
  });
}

/** `<time:...>`, upstream's global time for when the message was sent. */
const globalTime = (seconds: number): string => `<time:${new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00')}>`;

function reportContent(message: MessageRow, directory: RealmDirectory, reporter: UserRow, reason: string, description: string): string {
  const reported = directory.user(message.sender_id);
  const by = `${silentMention(reporter)} reported`;
  const sentBy = `sent by ${silentMention(reported)}`;
  const at = `at ${globalTime(message.timestamp)}.`;
  let header: string;
  let original: string;
  if (message.type === 'stream') {
    const channel = directory.channels.get(message.stream_id!);
    header = `${by} a message ${sentBy} ${at}`;
    original = `Original message at ${messageLinkSyntax(message.stream_id!, channel?.name ?? '', message.topic, message.id, directory)}`;
  } else {
    const participants = dmParticipants(message.dm_key!);
    if (participants.length <= 2) {
      const other = participants.find((id) => id !== reporter.id) ?? reporter.id;
      header =
        reported.id !== reporter.id
          ? `${by} a direct message ${sentBy} ${at}`
          : `${by} a direct message ${sentBy} to ${silentMention(directory.user(other))} ${at}`;
    } else {
      const recipients = participants
        .filter((id) => id !== reported.id)
        .map((id) => silentMention(directory.user(id)))
        .sort();
      const last = recipients.pop()!;
      const others = recipients.join(', ') + (recipients.length > 1 ? ',' : '');
      header = `${by} a direct message ${sentBy} to ${others} and ${last} ${at}`;
    }
    original = `[Original message](${messageUrl(message, directory)})`;
  }
  const quoted = truncate(message.content, MAX_REPORTED_SNIPPET_LENGTH);
  const fence = unusedFence(quoted);
  return `${header}\n\`\`\`quote\n**${reason}**. ${description}\n\`\`\`\n\n${fence} spoiler ${original}\n${quoted}\n${fence}`;
}
