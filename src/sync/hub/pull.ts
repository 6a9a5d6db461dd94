import type { RealmDatabase } from '../../engine/storage/database.ts';
import type { MessageRow, RealmRow, RecipientRow, SyncChangeRow, UserRow } from '../../engine/storage/rows.ts';
import { REFRESHED_ROW_TABLES } from '../table-scopes.ts';
import { readTablesRefresh } from './pull-tables.ts';
import { channelsSeenBy, userSeenBy } from './snapshot.ts';
import { historicalBundles, historyChannelIds } from './history.ts';
import { HISTORY_VERSION, MAX_PULL_CHANGES, type RefreshAnswer, type MessageBundle, type PullAnswer, SYNC_VERSION } from '../protocol.ts';

type PullChanges = Omit<PullAnswer, 'hub_id' | 'epoch'>;

/** Every table `readChanges` reads: its snapshot opens only these (a transaction over every table costs far more). */
export const PULL_TABLES: readonly string[] = [
  ...new Set([
    ...['sync_changes', 'user_topics', 'messages', 'user_messages', 'reactions', 'recipients', 'users', 'realm', 'channels', 'subscriptions'],
    // The tables a `tables` entry refreshes (`pull-tables.ts`).
    ...REFRESHED_ROW_TABLES,
  ]),
];

/**
 * The changes after `cursor` as the caller sees them, read in one snapshot: each changed
 * message as a bundle to upsert, or its id in `deleted` when it is gone or not the caller's
 * (never received, or access lost; channel history the caller may read counts as the caller's
 * for a replica of `HISTORY_VERSION`, without flags); the caller's topic visibility policies, all of them, when
 * one changed; each changed user and channel as the caller may see it (the snapshot's filters),
 * or a channel in `removed_channels` when the caller was told of its change but may no longer
 * see it (the row its last event showed them). A channel or user a page's message names whose
 * own change lies beyond the page comes with it, so that no message reaches a replica before
 * its channel or sender. Personal and shared rows that `tables` entries naming the caller
 * report changed come with the caller's share of their events (`pull-tables.ts`); the caller's
 * own row, for a settings change, among the users. The answer's cursor is the last change included, never beyond it.
 */
export async function readChanges(
  db: RealmDatabase,
  caller: UserRow,
  cursor: number,
  limit = MAX_PULL_CHANGES,
  replicaVersion = SYNC_VERSION,
): Promise<PullChanges> {
  const changes = await db.sync_changes.where('seq').above(cursor).limit(limit + 1).toArray();
  const more = changes.length > limit;
  const page = changes.slice(0, limit);
  const answer: PullChanges = {
    cursor: page.at(-1)?.seq ?? cursor,
    more,
    messages: [],
    deleted: [],
    realm_changed: page.some((change) => change.kind === 'realm' && change.users?.includes(caller.id)),
  };
  if (page.some((change) => change.kind === 'user_topic' && change.users?.includes(caller.id))) {
    answer.user_topics = await db.user_topics.where('user_id').equals(caller.id).toArray();
  }
  const messageIds = page.filter((change) => change.kind === 'message' && change.message_id !== undefined).map((change) => change.message_id!);
  const bundles = await messageBundles(db, caller, messageIds, replicaVersion >= HISTORY_VERSION);
  for (const id of messageIds) {
    const bundle = bundles.get(id);
    if (bundle) answer.messages.push(bundle);
    else answer.deleted.push(id);
  }
  const tables = await readTablesRefresh(db, caller.id, page);
  // A replica of version 1 knows no `tables` refresh: it resyncs for one, as it did before them.
  if (tables && replicaVersion < 2) answer.realm_changed = true;
  else if (tables) answer.tables = tables.refresh;
  const named = namedEntities(answer.messages);
  const ownRow = tables?.ownRow ? [caller.id] : [];
  await addUsers(db, caller, [...changedIds(page, 'user'), ...(await changedLater(db, 'user', named.users, answer.cursor)), ...ownRow], answer);
  await addChannels(db, caller, page, await changedLater(db, 'channel', named.channels, answer.cursor), answer);
  return answer;
}

/** The channels and users the messages name: their channel, their sender, a conversation's members. */
function namedEntities(bundles: readonly MessageBundle[]): { channels: Set<number>; users: Set<number> } {
  const channels = new Set<number>();
  const users = new Set<number>();
  for (const { message, recipient } of bundles) {
    if (message.stream_id !== undefined) channels.add(message.stream_id);
    users.add(message.sender_id);
    const [kind, ids = ''] = recipient.key.split(':');
    if (kind === 'user' || kind === 'dm') for (const id of ids.split(',')) users.add(Number(id));
  }
  return { channels, users };
}

/** Of `ids`, those whose own change entry lies beyond `cursor`. */
async function changedLater(db: RealmDatabase, kind: 'channel' | 'user', ids: ReadonlySet<number>, cursor: number): Promise<number[]> {
  const later: number[] = [];
  for (const id of ids) {
    const change = await db.sync_changes.where('[kind+entity_id]').equals([kind, id]).first();
    if (change && change.seq > cursor) later.push(id);
  }
  return later;
}

const changedIds = (page: readonly SyncChangeRow[], kind: SyncChangeRow['kind']): number[] =>
  page.filter((change) => change.kind === kind && change.entity_id !== undefined).map((change) => change.entity_id!);

async function addUsers(db: RealmDatabase, caller: UserRow, ids: readonly number[], answer: PullChanges): Promise<void> {
  const users = (await db.users.bulkGet([...new Set(ids)])).filter((user) => user !== undefined);
  if (users.length === 0) return;
  const realm = (await db.realm.get(1)) as RealmRow;
  const recipients = await db.recipients.bulkGet(users.map((user) => user.recipient_id));
  answer.users = users.map((user, index) => ({ user: userSeenBy(realm, caller, user), recipient: recipients[index] as RecipientRow }));
}

/** `later`: channels the page's messages name whose change lies beyond the page (never removed here: their time comes). */
async function addChannels(db: RealmDatabase, caller: UserRow, page: readonly SyncChangeRow[], later: readonly number[], answer: PullChanges): Promise<void> {
  const changes = page.filter((change) => change.kind === 'channel' && change.entity_id !== undefined);
  if (changes.length === 0 && later.length === 0) return;
  const ids = [...new Set([...changes.map((change) => change.entity_id!), ...later])];
  const channels = (await db.channels.bulkGet(ids)).filter((channel) => channel !== undefined);
  const own = await db.subscriptions.where('[user_id+active]').equals([caller.id, 1]).toArray();
  const theirs = await db.subscriptions.where('[channel_id+active]').anyOf(ids.flatMap((id) => [[id, 0], [id, 1]])).toArray();
  const seen = channelsSeenBy(caller, channels, new Set(own.map((s) => s.channel_id)), theirs);
  if (seen.channels.length > 0) {
    const recipients = await db.recipients.bulkGet(seen.channels.map((channel) => channel.recipient_id));
    answer.channels = seen.channels.map((channel, index) => ({
      channel,
      recipient: recipients[index] as RecipientRow,
      subscriptions: seen.subscriptions.filter((s) => s.channel_id === channel.id),
    }));
  }
  const visible = new Set(seen.channels.map((channel) => channel.id));
  const told = new Set(changes.filter((change) => change.users?.includes(caller.id)).map((change) => change.entity_id!));
  const removed = channels.filter((channel) => !visible.has(channel.id) && told.has(channel.id));
  if (removed.length > 0) answer.removed_channels = removed;
}

/** `POST /sync/v1/messages`: the messages of `ids` as a pull bundles them for the caller, and the others (gone, or out of sight) as deleted. */
export async function refreshedMessages(db: RealmDatabase, caller: UserRow, ids: readonly number[], replicaVersion: number): Promise<RefreshAnswer> {
  const unique = [...new Set(ids)];
  const bundles = await messageBundles(db, caller, unique, replicaVersion >= HISTORY_VERSION);
  return { messages: unique.flatMap((id) => bundles.get(id) ?? []), deleted: unique.filter((id) => !bundles.has(id)) };
}

/**
 * The bundles of the messages the caller holds, read a table at a time (a page is up to 500
 * messages); with `history`, also those the caller may read as channel history.
 */
async function messageBundles(db: RealmDatabase, caller: UserRow, ids: readonly number[], history: boolean): Promise<Map<number, MessageBundle>> {
  const [messages, userMessages, reactions] = await Promise.all([
    db.messages.bulkGet(ids as number[]),
    db.user_messages.bulkGet(ids.map((id): [number, number] => [caller.id, id])),
    db.reactions.where('message_id').anyOf(ids as number[]).sortBy('seq'),
  ]);
  const recipientIds = [...new Set(messages.filter((m) => m !== undefined).map((m) => m.recipient_id))];
  const recipients = new Map((await db.recipients.bulkGet(recipientIds)).filter((r) => r !== undefined).map((r) => [r.id, r]));
  const bundles = new Map<number, MessageBundle>();
  const notReceived: MessageRow[] = [];
  ids.forEach((id, index) => {
    const message = messages[index];
    const userMessage = userMessages[index];
    if (message && !userMessage) notReceived.push(message);
    if (!message || !userMessage) return;
    bundles.set(id, { message, user_message: userMessage, reactions: [], recipient: recipients.get(message.recipient_id) as RecipientRow });
  });
  for (const reaction of reactions) bundles.get(reaction.message_id)?.reactions.push(reaction);
  if (history && notReceived.length > 0) {
    for (const bundle of await historicalBundles(db, notReceived, await historyChannelIds(db, caller))) bundles.set(bundle.message.id, bundle);
  }
  return bundles;
}
