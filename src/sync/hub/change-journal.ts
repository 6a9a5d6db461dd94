import type { Notice } from '../../engine/events/event-types.ts';
import type { WriteJournal } from '../../engine/services/action-scope.ts';
import { nextId, type RealmDatabase } from '../../engine/storage/database.ts';
import type { JournaledNotice } from '../../engine/storage/rows.ts';
import { changesRealmView, tablesOf } from '../table-scopes.ts';
import { touchedMessageIds } from '../touched-messages.ts';

/**
 * What reaches a replica only through a full resync of the users concerned (docs/SYNC.md):
 * bots' own events (`realm_bot`), a realm setting that changes which rows replicas hold
 * (`changesRealmView`), and a role change, for its user alone (`resyncedUsers`). Not here:
 * messages, reactions, flags, topic visibility, channels, subscriptions and users (their own
 * entries); the rows of `tablesOf` (a `tables` entry: personal tables, user groups, the realm's
 * settings, custom profile fields and data, ...); typing and presence (ephemeral, relayed to
 * waiting replicas by `ephemeral-relay.ts`, and presence too frequent to resync for);
 * invitations and exports (tables that never leave the hub).
 */
const RESYNC_EVENT_TYPES = new Set(['realm_bot']);

/**
 * The hub's change feed, written in each action's transaction from its plain-data notices: one
 * entry per touched message (replacing the message's older entry, so the feed holds each
 * message once), one `user_topic` entry naming the users whose topic visibility changed, one
 * entry per touched channel (its settings or subscriptions) and per touched user, replacing the
 * older one as messages do, one `tables` entry carrying the notices of changed personal and
 * shared rows (`tablesOf`) as data, and one `realm` entry naming the users who must resync.
 */
export const syncChangeJournal: WriteJournal = async (scope, notices) => {
  const messageIds = new Set<number>();
  /** Messages this transaction created: no older entry of theirs to replace. */
  const created = new Set<number>();
  const realmUsers = new Set<number>();
  const topicUsers = new Set<number>();
  /** Touched channels, each with the users told of it. */
  const channels = new Map<number, Set<number>>();
  const users = new Set<number>();
  const tableNotices: JournaledNotice[] = [];
  for (const notice of notices) {
    for (const id of touchedChannelIds(notice)) {
      const told = channels.get(id) ?? new Set<number>();
      for (const user of notice.users) told.add(user);
      channels.set(id, told);
    }
    for (const id of touchedUserIds(notice)) users.add(id);
    for (const id of touchedMessageIds(notice)) messageIds.add(id);
    if (notice.event.type === 'message' && notice.message) created.add(notice.message.row.id);
    for (const user of resyncedUsers(notice)) realmUsers.add(user);
    if (notice.event.type === 'user_topic') for (const user of notice.users) topicUsers.add(user);
    if (tablesOf(notice.event).length > 0) tableNotices.push(journaled(notice));
  }
  const { db } = scope;
  // Users and channels first: a page that brings a message also brings the channel it was sent to.
  for (const userId of [...users].sort((a, b) => a - b)) await appendEntity(db, 'user', userId, new Set());
  for (const [channelId, told] of [...channels].sort(([a], [b]) => a - b)) await appendEntity(db, 'channel', channelId, told);
  for (const messageId of [...messageIds].sort((a, b) => a - b)) {
    if (!created.has(messageId)) await db.sync_changes.where('message_id').equals(messageId).delete();
    await db.sync_changes.add({ seq: await nextId(db, 'sync_change'), kind: 'message', message_id: messageId });
  }
  if (topicUsers.size > 0) {
    await db.sync_changes.add({ seq: await nextId(db, 'sync_change'), kind: 'user_topic', users: [...topicUsers].sort((a, b) => a - b) });
  }
  if (tableNotices.length > 0) {
    const told = [...new Set(tableNotices.flatMap((notice) => notice.users))].sort((a, b) => a - b);
    await db.sync_changes.add({ seq: await nextId(db, 'sync_change'), kind: 'tables', users: told, notices: tableNotices });
  }
  if (realmUsers.size > 0) {
    await db.sync_changes.add({ seq: await nextId(db, 'sync_change'), kind: 'realm', users: [...realmUsers].sort((a, b) => a - b) });
  }
};

function journaled(notice: Notice): JournaledNotice {
  const entry: JournaledNotice = { event: notice.event, users: [...notice.users] };
  if (notice.perUser) entry.per_user = [...notice.perUser];
  if (notice.emptyTopicDisplayName !== undefined) entry.empty_topic_display_name = notice.emptyTopicDisplayName;
  return entry;
}

/** A channel's or user's entry replaces its older one, keeping the users that one told. */
async function appendEntity(db: RealmDatabase, kind: 'channel' | 'user', entityId: number, told: Set<number>): Promise<void> {
  const older = db.sync_changes.where('[kind+entity_id]').equals([kind, entityId]);
  for (const change of await older.toArray()) for (const user of change.users ?? []) told.add(user);
  await older.delete();
  const users = kind === 'channel' ? { users: [...told].sort((a, b) => a - b) } : {};
  await db.sync_changes.add({ seq: await nextId(db, 'sync_change'), kind, entity_id: entityId, ...users });
}

/** The channels whose row or subscriptions a `stream` or `subscription` notice reports changed. */
function touchedChannelIds(notice: Notice): readonly number[] {
  const event = notice.event;
  if (event.type === 'stream') {
    return event.op === 'update' ? ids([event.stream_id]) : streamIds(event.streams);
  }
  if (event.type !== 'subscription') return [];
  if (event.op === 'update') return ids([event.stream_id]);
  if (event.op === 'peer_add' || event.op === 'peer_remove') return ids(event.stream_ids);
  return streamIds(event.subscriptions);
}

function touchedUserIds(notice: Notice): readonly number[] {
  const event = notice.event;
  // Custom profile data changes `profile_values`, not the user's row: it travels in a `tables` entry.
  if (event.type !== 'realm_user' || tablesOf(event).length > 0) return [];
  const person = (notice.perUser?.values().next().value?.person ?? event.person) as { user_id?: unknown } | undefined;
  return ids([person?.user_id]);
}

const streamIds = (objects: unknown): number[] =>
  Array.isArray(objects) ? ids(objects.map((object) => (object as { stream_id?: unknown } | null)?.stream_id)) : [];

/** The users whose replicas must take a snapshot for this notice. */
function resyncedUsers(notice: Notice): readonly number[] {
  const event = notice.event;
  if (RESYNC_EVENT_TYPES.has(event.type) || changesRealmView(event)) return notice.users;
  // A role decides which emails and channels its user sees (`userSeenBy`, `channelsSeenBy` read
  // the caller's role only): everyone else learns the role from the user's entry.
  const person = event.person as { user_id?: unknown; role?: unknown } | undefined;
  return event.type === 'realm_user' && person?.role !== undefined ? ids([person.user_id]) : [];
}

const ids = (value: unknown): number[] =>
  Array.isArray(value) ? value.filter((id): id is number => Number.isSafeInteger(id)) : [];
