import type { Notice } from '../../engine/events/event-types.ts';
import type { WriteJournal } from '../../engine/services/action-scope.ts';
import { nextId } from '../../engine/storage/database.ts';

/** Event types whose changes reach a replica only through a full resync in this slice (docs/SYNC.md). */
const REALM_EVENT_TYPES = new Set(['subscription', 'stream', 'realm_user', 'realm']);

/**
 * The other notices of rows a snapshot carries (personal settings and tables, the realm's
 * groups, emoji, linkifiers, ...), which a replica's forwarded writes produce too: a full resync
 * of the users concerned brings them. Not here: messages, reactions, flags and topic visibility
 * (their own entries); typing and presence (ephemeral, and presence too frequent to resync for);
 * invitations and exports (tables that never leave the hub).
 */
const SNAPSHOT_EVENT_TYPES = new Set([
  'alert_words',
  'attachment',
  'channel_folder',
  'custom_profile_fields',
  'default_streams',
  'drafts',
  'muted_users',
  'navigation_view',
  'realm_bot',
  'realm_emoji',
  'realm_linkifiers',
  'realm_playgrounds',
  'realm_user_settings_defaults',
  'reminders',
  'saved_snippets',
  'scheduled_messages',
  'update_display_settings',
  'update_global_notifications',
  'user_group',
  'user_settings',
  'user_status',
]);

/**
 * The hub's change feed, written in each action's transaction from its plain-data notices: one
 * entry per touched message (replacing the message's older entry, so the feed holds each
 * message once), one `user_topic` entry naming the users whose topic visibility changed, and
 * one `realm` entry naming the users another change outside messages concerns.
 */
export const syncChangeJournal: WriteJournal = async (scope, notices) => {
  const messageIds = new Set<number>();
  /** Messages this transaction created: no older entry of theirs to replace. */
  const created = new Set<number>();
  const realmUsers = new Set<number>();
  const topicUsers = new Set<number>();
  for (const notice of notices) {
    for (const id of touchedMessageIds(notice)) messageIds.add(id);
    if (notice.event.type === 'message' && notice.message) created.add(notice.message.row.id);
    if (concernsRealm(notice)) for (const user of notice.users) realmUsers.add(user);
    if (notice.event.type === 'user_topic') for (const user of notice.users) topicUsers.add(user);
  }
  const { db } = scope;
  for (const messageId of [...messageIds].sort((a, b) => a - b)) {
    if (!created.has(messageId)) await db.sync_changes.where('message_id').equals(messageId).delete();
    await db.sync_changes.add({ seq: await nextId(db, 'sync_change'), kind: 'message', message_id: messageId });
  }
  if (topicUsers.size > 0) {
    await db.sync_changes.add({ seq: await nextId(db, 'sync_change'), kind: 'user_topic', users: [...topicUsers].sort((a, b) => a - b) });
  }
  if (realmUsers.size > 0) {
    await db.sync_changes.add({ seq: await nextId(db, 'sync_change'), kind: 'realm', users: [...realmUsers].sort((a, b) => a - b) });
  }
};

function touchedMessageIds(notice: Notice): readonly number[] {
  if (notice.changedMessageIds) return notice.changedMessageIds;
  const event = notice.event;
  switch (event.type) {
    case 'message':
      return notice.message ? [notice.message.row.id] : [];
    case 'update_message':
    case 'delete_message':
      return ids(event.message_ids ?? [event.message_id]);
    case 'reaction':
      return ids([event.message_id]);
    case 'update_message_flags':
      return ids(event.messages);
    default:
      return [];
  }
}

function concernsRealm(notice: Notice): boolean {
  const event = notice.event;
  // A channel's first message id moves with every first send: nothing a replica stores.
  if (event.type === 'stream' && event.property === 'first_message_id') return false;
  return REALM_EVENT_TYPES.has(event.type) || SNAPSHOT_EVENT_TYPES.has(event.type);
}

const ids = (value: unknown): number[] =>
  Array.isArray(value) ? value.filter((id): id is number => Number.isSafeInteger(id)) : [];
