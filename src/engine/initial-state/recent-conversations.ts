import { dmParticipants } from '../storage/recipients.ts';
import type { StateContext } from './state-context.ts';

/** "Recent" is the newest 1000 direct messages the user received, as upstream. */
const RECENT_DIRECT_MESSAGES = 1000;

/**
 * `recent_private_conversations`: each direct conversation among the user's newest direct
 * messages (walked newest first on [user_id+stream_id+message_id], where direct messages are
 * channel 0), newest first, named by the participants other than the user (none: notes to self).
 * A direct message's flags row carries its conversation (`thread_key` is the `dm_key`), so no
 * message is read: the cost is one range read, not one read per message.
 */
export async function recentConversationsSection(ctx: StateContext): Promise<Record<string, unknown>> {
  if (!ctx.user) return { recent_private_conversations: [] };
  const uid = ctx.user.id;
  const rows = await ctx.db.user_messages
    .where('[user_id+stream_id+message_id]')
    .between([uid, 0, 0], [uid, 0, Infinity])
    .reverse()
    .limit(RECENT_DIRECT_MESSAGES)
    .toArray();
  const newestByConversation = new Map<string, number>();
  for (const row of rows) {
    if (!newestByConversation.has(row.thread_key)) newestByConversation.set(row.thread_key, row.message_id);
  }
  return {
    recent_private_conversations: [...newestByConversation].map(([key, maxId]) => ({
      max_message_id: maxId,
      user_ids: dmParticipants(key).filter((id) => id !== uid),
    })),
  };
}
