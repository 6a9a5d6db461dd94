import type { Message, Subscription } from '../api/wire-types.ts';
import { TOPIC_FOLLOWED, TOPIC_MUTED } from './realm-state.ts';

/** What decides whether a new message notifies, as upstream's defaults and settings decide it. */
export interface NotifyContext {
  me: number;
  settings: Record<string, unknown>;
  subscription(channelId: number): Subscription | undefined;
  topicPolicy(channelId: number, topic: string): number;
}

/**
 * Whether a new message deserves a desktop notification: not my own, not already read; a DM or
 * a mention (or an alert word) when `enable_desktop_notifications` is on (upstream's default);
 * a channel message when its subscription asks for it (else `enable_stream_desktop_notifications`),
 * or a followed topic when `enable_followed_topic_desktop_notifications` is on; never a muted topic.
 */
export function deservesNotification(message: Message, context: NotifyContext): boolean {
  if (message.sender_id === context.me || message.flags.includes('read')) return false;
  const personal = message.type === 'private' || ['mentioned', 'wildcard_mentioned', 'has_alert_word'].some((flag) => message.flags.includes(flag));
  if (message.type === 'stream' && message.stream_id !== undefined && context.topicPolicy(message.stream_id, message.subject) === TOPIC_MUTED) return false;
  if (personal) return context.settings.enable_desktop_notifications !== false;
  if (message.stream_id === undefined) return false;
  if (context.topicPolicy(message.stream_id, message.subject) === TOPIC_FOLLOWED && context.settings.enable_followed_topic_desktop_notifications !== false) return true;
  const sub = context.subscription(message.stream_id);
  if (!sub || sub.is_muted) return false;
  return sub.desktop_notifications ?? context.settings.enable_stream_desktop_notifications === true;
}
