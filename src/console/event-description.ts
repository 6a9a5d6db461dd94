import type { ApiEvent } from './event-follower.ts';

/** `type` and `op` of an event (`reaction add`), as the log's first column. */
export function eventKind(event: ApiEvent): string {
  return typeof event.op === 'string' ? `${event.type} ${event.op}` : event.type;
}

/** A short human line for the events people trigger most; others show their kind only. */
export function eventDetail(event: ApiEvent): string {
  switch (event.type) {
    case 'message': {
      const message = event.message as { type: string; display_recipient: unknown; subject: string; sender_full_name: string };
      const where = message.type === 'stream' ? `#${String(message.display_recipient)} > ${message.subject}` : 'direct message';
      return `${where}, from ${message.sender_full_name}`;
    }
    case 'reaction':
      return `:${String(event.emoji_name)}: on message ${String(event.message_id)}`;
    case 'update_message':
    case 'delete_message':
      return `message ${String(event.message_id)}`;
    case 'update_message_flags':
      return `${String(event.flag)} on ${(event.messages as unknown[]).length} message(s)`;
    default:
      return '';
  }
}
