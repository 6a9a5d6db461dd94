import { navigationViewsOf, navigationViewToWire } from '../wire/navigation-view-wire.ts';
import { realmPresence } from '../wire/presence-wire.ts';
import { savedSnippetsOf, savedSnippetToWire } from '../wire/saved-snippet-wire.ts';
import { draftsOf, draftToWire } from '../wire/draft-wire.ts';
import { alertWordsOf } from '../wire/alert-word-wire.ts';
import { mutedUsersOf } from '../wire/muted-user-wire.ts';
import { realmUserStatuses } from '../wire/user-status-wire.ts';
import { displayTopic } from '../wire/message-wire.ts';
import type { StateContext } from './state-context.ts';

const MUTED = 1;

/** `user_topic`: the caller's topic visibility policies. */
export async function userTopicsSection(ctx: StateContext): Promise<Record<string, unknown>> {
  const rows = ctx.user ? await ctx.db.user_topics.where('user_id').equals(ctx.user.id).toArray() : [];
  return {
    user_topics: rows
      .filter((r) => r.visibility_policy !== 0)
      .sort((a, b) => a.last_updated - b.last_updated)
      .map((r) => ({
        stream_id: r.stream_id,
        topic_name: displayTopic(r.topic_name, ctx.directory, ctx.capabilities.empty_topic_name),
        last_updated: r.last_updated,
        visibility_policy: r.visibility_policy,
      })),
  };
}

/** `muted_topics` (legacy; sent only when `user_topic` is not wanted): [channel name, topic, time]. */
export async function mutedTopicsSection(ctx: StateContext): Promise<Record<string, unknown>> {
  const rows = ctx.user ? await ctx.db.user_topics.where('user_id').equals(ctx.user.id).toArray() : [];
  return {
    muted_topics: rows
      .filter((r) => r.visibility_policy === MUTED && ctx.directory.channels.has(r.stream_id))
      .map((r) => [
        ctx.directory.channels.get(r.stream_id)!.name,
        displayTopic(r.topic_name, ctx.directory, ctx.capabilities.empty_topic_name),
        r.last_updated,
      ]),
  };
}

/** `starred_messages`, read from the sparse [user_id+starred+message_id] index. */
export async function starredMessagesSection(ctx: StateContext): Promise<Record<string, unknown>> {
  if (!ctx.user) return { starred_messages: [] };
  const uid = ctx.user.id;
  const ids = await ctx.db.user_messages
    .where('[user_id+starred+message_id]')
    .between([uid, 1, 0], [uid, 1, Infinity])
    .primaryKeys();
  return { starred_messages: ids.map(([, messageId]) => messageId) };
}

/** `navigation_views`: the caller's sidebar views. */
export async function navigationViewsSection(ctx: StateContext): Promise<Record<string, unknown>> {
  const rows = ctx.user ? await navigationViewsOf(ctx.db, ctx.user.id) : [];
  return { navigation_views: rows.map(navigationViewToWire) };
}

/** `saved_snippets`: the caller's snippets, oldest first. */
export async function savedSnippetsSection(ctx: StateContext): Promise<Record<string, unknown>> {
  const rows = ctx.user ? await savedSnippetsOf(ctx.db, ctx.user.id) : [];
  return { saved_snippets: rows.map(savedSnippetToWire) };
}

/** Upstream sends at most this many drafts in /register; clients fetch more with GET /drafts. */
const MAX_DRAFTS_IN_REGISTER = 1000;

/** `drafts`: the caller's most recently edited drafts first (none are kept while syncing is off). */
export async function draftsSection(ctx: StateContext): Promise<Record<string, unknown>> {
  const rows = ctx.user ? await draftsOf(ctx.db, ctx.user.id) : [];
  return { drafts: rows.reverse().slice(0, MAX_DRAFTS_IN_REGISTER).map(draftToWire) };
}

/** `alert_words`: the caller's alert words, in the order they were added. */
export async function alertWordsSection(ctx: StateContext): Promise<Record<string, unknown>> {
  return { alert_words: ctx.user ? await alertWordsOf(ctx.db, ctx.user.id) : [] };
}

/** `muted_users`: whom the caller muted, and when. */
export async function mutedUsersSection(ctx: StateContext): Promise<Record<string, unknown>> {
  return { muted_users: ctx.user ? await mutedUsersOf(ctx.db, ctx.user.id) : [] };
}

/** `user_status`: every active user's status that says something, by user id (spectators see none). */
export async function userStatusSection(ctx: StateContext): Promise<Record<string, unknown>> {
  return { user_status: ctx.user ? await realmUserStatuses(ctx.db, ctx.directory) : {} };
}

/**
 * `presence`: recent presence data in the format `slim_presence` asks for, with the sequence
 * number to poll from and the time it was read. Spectators see nobody's presence.
 */
export async function presenceSection(ctx: StateContext): Promise<Record<string, unknown>> {
  const { slim, historyLimitDays } = ctx.presence ?? { slim: false };
  const data = ctx.user
    ? await realmPresence(ctx.db, ctx.directory, ctx.user, ctx.now, { slim, historyLimitDays })
    : { presences: {}, presence_last_update_id: -1 };
  return { ...data, server_timestamp: ctx.now };
}

/** Sections whose data this server does not keep, reported empty so that clients can rely on the keys. */
export const EMPTY_SECTIONS: Record<string, () => Record<string, unknown>> = {
  realm_domains: () => ({ realm_domains: [] }),
  realm_filters: () => ({ realm_filters: [] }),
  default_stream_groups: () => ({ realm_default_stream_groups: [] }),
  onboarding_steps: () => ({ onboarding_steps: [] }),
  // Search here ignores no word.
  stop_words: () => ({ stop_words: [] }),
  // No embedded bot service and no incoming webhook integration is offered.
  realm_embedded_bots: () => ({ realm_embedded_bots: [] }),
  realm_incoming_webhook_bots: () => ({ realm_incoming_webhook_bots: [] }),
  // No Zoom OAuth and no GIPHY key: a sandbox reaches neither service.
  video_calls: () => ({ has_zoom_token: false }),
  giphy: () => ({ giphy_api_key: '' }),
};
