import { displayTopic } from '../wire/message-wire.ts';
import { dmParticipants } from '../storage/recipients.ts';
import { FLAG_BITS, type MessageRow } from '../storage/rows.ts';
import type { StateContext } from './state-context.ts';

/** Upstream reports at most the newest 50 000 unread messages. */
const MAX_UNREAD_MESSAGES = 50000;
const DIRECT_MENTION = FLAG_BITS.mentioned | FLAG_BITS.group_mentioned;
const WILDCARD_MENTION = FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned;
const TOPIC_MUTED = 1;
const TOPIC_UNMUTED = 2;
const TOPIC_FOLLOWED = 3;

/** `message` section: the newest message id the user received (-1 when none). */
export async function maxMessageIdSection(ctx: StateContext): Promise<Record<string, unknown>> {
  if (!ctx.user) return { max_message_id: -1 };
  const uid = ctx.user.id;
  const newest = await ctx.db.user_messages.where('[user_id+message_id]').between([uid, 0], [uid, Infinity]).last();
  return { max_message_id: newest?.message_id ?? -1 };
}

/**
 * `unread_msgs` (wanted with both `message` and `update_message_flags`), read through the
 * sparse [user_id+unread+message_id] index from the newest unread message back.
 */
export async function unreadSection(ctx: StateContext): Promise<Record<string, unknown>> {
  const empty = { count: 0, pms: [], streams: [], huddles: [], mentions: [], old_unreads_missing: false };
  if (!ctx.user) return { unread_msgs: empty };
  const { db, directory } = ctx;
  const uid = ctx.user.id;
  const newestFirst = await db.user_messages
    .where('[user_id+unread+message_id]')
    .between([uid, 1, 0], [uid, 1, Infinity])
    .reverse()
    .limit(MAX_UNREAD_MESSAGES + 1)
    .toArray();
  const oldUnreadsMissing = newestFirst.length > MAX_UNREAD_MESSAGES;
  const rows = newestFirst.slice(0, MAX_UNREAD_MESSAGES).reverse();
  const messages = await db.messages.bulkGet(rows.map((r) => r.message_id));
  const isMuted = await mutingOf(ctx);

  const pms = new Map<number, number[]>();
  const huddles = new Map<string, number[]>();
  const streams = new Map<string, { stream_id: number; topic: string; unread_message_ids: number[] }>();
  const mentions: number[] = [];
  let count = 0;
  rows.forEach((row, index) => {
    const message = messages[index];
    if (!message) return;
    let muted = false;
    if (message.type === 'stream') {
      const state = isMuted(message);
      if (state === 'unsubscribed') return;
      muted = state === 'muted';
      const key = `${message.stream_id}:${message.topic}`;
      let entry = streams.get(key);
      if (!entry) {
        const topic = displayTopic(message.topic, directory, ctx.capabilities.empty_topic_name);
        streams.set(key, (entry = { stream_id: message.stream_id!, topic, unread_message_ids: [] }));
      }
      entry.unread_message_ids.push(message.id);
    } else {
      const participants = dmParticipants(message.dm_key!);
      if (participants.length <= 2) {
        const other = participants.find((id) => id !== uid) ?? uid;
        pms.set(other, [...(pms.get(other) ?? []), message.id]);
      } else {
        huddles.set(message.dm_key!, [...(huddles.get(message.dm_key!) ?? []), message.id]);
      }
    }
    if (!muted) count++;
    if (row.flags & DIRECT_MENTION || (!muted && row.flags & WILDCARD_MENTION)) mentions.push(message.id);
  });
  return {
    unread_msgs: {
      count,
      pms: [...pms].map(([other, ids]) => ({ other_user_id: other, sender_id: other, unread_message_ids: ids })),
      streams: [...streams.values()],
      huddles: [...huddles].map(([key, ids]) => ({ user_ids_string: key, unread_message_ids: ids })),
      mentions,
      old_unreads_missing: oldUnreadsMissing,
    },
  };
}

type MuteState = 'unsubscribed' | 'muted' | 'visible';

/**
 * How a channel message counts for this user: not at all outside their subscriptions, and not
 * in `count` when its topic is muted, or its channel is muted and the topic not unmuted or followed.
 */
async function mutingOf(ctx: StateContext): Promise<(message: MessageRow) => MuteState> {
  const uid = ctx.user!.id;
  const subs = await ctx.db.subscriptions.where('[user_id+active]').equals([uid, 1]).toArray();
  const channelMuted = new Map(subs.map((s) => [s.channel_id, s.is_muted]));
  const topicPolicies = new Map<string, number>();
  for (const row of await ctx.db.user_topics.where('user_id').equals(uid).toArray()) {
    topicPolicies.set(`${row.stream_id}:${row.topic_key}`, row.visibility_policy);
  }
  return (message) => {
    const muted = channelMuted.get(message.stream_id!);
    if (muted === undefined) return 'unsubscribed';
    const policy = topicPolicies.get(`${message.stream_id}:${message.topic_key}`);
    if (policy === TOPIC_MUTED) return 'muted';
    if (muted && policy !== TOPIC_UNMUTED && policy !== TOPIC_FOLLOWED) return 'muted';
    return 'visible';
  };
}
