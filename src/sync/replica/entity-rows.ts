import { archivedNotice } from '../../engine/actions/channel-archive.ts';
import { notifyChannelChanges } from '../../engine/actions/channel-update.ts';
import { realmUserAddNotice } from '../../engine/actions/create-user.ts';
import { notifySubscriberActivity, roleGroupNotices } from '../../engine/actions/users.ts';
import { SUBSCRIPTION_PROPERTIES, type SubscriptionPropertyChange, subscriptionUpdateNotices } from '../../engine/actions/subscription-properties.ts';
import { notifySubscribed, notifyUnsubscribed, type SubscriptionPair } from '../../engine/actions/subscriptions.ts';
import { RealmDirectory } from '../../engine/directory/realm-directory.ts';
import { channelViewerIds } from '../../engine/permissions/channel-access.ts';
import { canSeeChannelMetadata, canSeeSubscribers } from '../../engine/permissions/channel-visibility.ts';
import type { ActionScope } from '../../engine/services/action-scope.ts';
import type { RealmDatabase } from '../../engine/storage/database.ts';
import type { ChannelRow, SubscriptionRow, UserRow } from '../../engine/storage/rows.ts';
import { loadChannelStats, loadChannelSubscriberIds, loadChannelWires } from '../../engine/wire/channel-stats.ts';
import { channelToWire, streamDeleteEvent } from '../../engine/wire/channel-wire.ts';
import { userToWire } from '../../engine/wire/user-wire.ts';
import type { ChannelBundle, UserBundle } from '../protocol.ts';
import { freeTakenKeys } from './unique-keys.ts';

/**
 * A page's users and channels, upserted (or a channel removed) in the page's transaction, and
 * the events a client of the hub got for them, derived from the rows before and after with the
 * actions' own notice builders (docs/SYNC.md, replica rule 4): the same rows twice emit nothing.
 */

/** A user's fields announced as `realm_user` update, by their name in the user object and in the event. */
const PERSON_FIELDS = [
  ['full_name', 'full_name'],
  ['role', 'role'],
  ['is_active', 'is_active'],
  ['timezone', 'timezone'],
  ['delivery_email', 'delivery_email'],
  ['email', 'new_email'],
] as const;

export async function applyUsers(scope: ActionScope, me: number, bundles: readonly UserBundle[]): Promise<void> {
  if (bundles.length === 0) return;
  const { db } = scope;
  const old = await db.users.bulkGet(bundles.map((bundle) => bundle.user.id));
  const before = await RealmDirectory.load(db);
  await db.recipients.bulkPut(bundles.map((bundle) => bundle.recipient));
  await freeTakenKeys(db.users, 'email_key', bundles.map((bundle) => bundle.user));
  await db.users.bulkPut(bundles.map((bundle) => bundle.user));
  const directory = await RealmDirectory.load(db);
  const viewer = directory.user(me);
  const wire = (user: UserRow) => userToWire(user, directory.realm, { viewer, includeProfileData: false, avatarUrlOptional: false });
  bundles.forEach(({ user }, index) => {
    const known = old[index];
    if (!known) {
      scope.notify(realmUserAddNotice(directory, user, [viewer]));
      return;
    }
    const [was, is] = [wire(known), wire(user)];
    for (const [field, name] of PERSON_FIELDS) {
      if (was[field] === is[field]) continue;
      scope.notify({ event: { type: 'realm_user', op: 'update', person: { user_id: user.id, [name]: is[field] } }, users: [me] });
      if (field === 'role' && user.is_active) for (const notice of roleGroupNotices(user.id, known.role, user.role, [me])) scope.notify(notice);
    }
  });
  for (const active of [false, true]) {
    const flipped = bundles.filter(({ user }, index) => old[index] !== undefined && old[index].is_active !== active && user.is_active === active);
    if (flipped.length > 0) await notifySubscriberActivity(scope, before, directory, flipped.map(({ user }) => user), active);
  }
}

export async function applyChannels(scope: ActionScope, me: number, bundles: readonly ChannelBundle[], removed: readonly ChannelRow[]): Promise<void> {
  if (bundles.length === 0 && removed.length === 0) return;
  const { db } = scope;
  const ids = [...bundles.map((bundle) => bundle.channel.id), ...removed.map((channel) => channel.id)];
  const oldChannels = new Map((await db.channels.bulkGet(ids)).filter((c) => c !== undefined).map((c) => [c.id, c]));
  const oldSubscriptions = await subscriptionsOf(db, ids);
  const activeBefore = activeByChannel(oldSubscriptions);
  await removeChannels(scope, me, removed.filter((channel) => oldChannels.has(channel.id)), activeBefore);

  await db.subscriptions.bulkDelete(oldSubscriptions.map((s): [number, number] => [s.user_id, s.channel_id]));
  await db.recipients.bulkPut(bundles.map((bundle) => bundle.recipient));
  await freeTakenKeys(db.channels, 'name_key', bundles.map((bundle) => bundle.channel));
  await db.channels.bulkPut(bundles.map((bundle) => bundle.channel));
  await db.subscriptions.bulkPut(bundles.flatMap((bundle) => bundle.subscriptions));

  const directory = await RealmDirectory.load(db);
  const meRow = directory.user(me);
  const activeAfter = activeByChannel(bundles.flatMap((bundle) => bundle.subscriptions));
  const arrived = bundles.map((bundle) => bundle.channel).filter((channel) => !oldChannels.has(channel.id));
  await notifyArrived(scope, directory, me, arrived);

  const joined: SubscriptionPair[] = [];
  const left: SubscriptionPair[] = [];
  for (const { channel } of bundles) {
    const before = oldChannels.get(channel.id);
    const was = activeBefore.get(channel.id) ?? new Set<number>();
    const is = activeAfter.get(channel.id) ?? new Set<number>();
    if (before) {
      if (!before.is_archived && channel.is_archived) scope.notify(await archivedNotice(scope, directory, channel, [me]));
      await notifyChannelChanges(scope, before, channel, false);
      // Moved by a first send or its deletion (the hub's, or the hub's id for this replica's provisional one), as those actions tell it.
      if (before.first_message_id !== channel.first_message_id && channelViewerIds(directory, channel, is).includes(me)) {
        const event = { type: 'stream', op: 'update', stream_id: channel.id, name: channel.name, property: 'first_message_id', value: channel.first_message_id };
        scope.notify({ event, users: [me] });
      }
    }
    // Peers come and go only where the user saw the subscribers before and after: a new subscriber gets the list with its subscription.
    const peersSeen = before !== undefined && canSeeSubscribers(meRow, before, was.has(me)) && canSeeSubscribers(meRow, channel, is.has(me));
    const told = (userId: number) => (userId === me || peersSeen) && directory.users.has(userId);
    for (const userId of is) if (!was.has(userId) && told(userId)) joined.push({ user: directory.user(userId), channel });
    for (const userId of was) if (!is.has(userId) && told(userId)) left.push({ user: directory.user(userId), channel });
  }
  if (joined.length > 0) await notifySubscribed(scope, directory, joined, new Set(arrived.map((channel) => channel.id)));
  if (left.length > 0) await notifyUnsubscribed(scope, directory, left);
  notifyOwnProperties(scope, me, oldSubscriptions, bundles);
}

function subscriptionsOf(db: RealmDatabase, channelIds: readonly number[]): Promise<SubscriptionRow[]> {
  return db.subscriptions.where('[channel_id+active]').anyOf(channelIds.flatMap((id) => [[id, 0], [id, 1]])).toArray();
}

function activeByChannel(rows: readonly SubscriptionRow[]): Map<number, Set<number>> {
  const byChannel = new Map<number, Set<number>>();
  for (const row of rows) {
    if (row.active !== 1) continue;
    const users = byChannel.get(row.channel_id) ?? new Set<number>();
    users.add(row.user_id);
    byChannel.set(row.channel_id, users);
  }
  return byChannel;
}

/** Channels new to the replica: `stream` create, as their creation (or the access gained) told the hub's clients. */
async function notifyArrived(scope: ActionScope, directory: RealmDirectory, me: number, channels: readonly ChannelRow[]): Promise<void> {
  if (channels.length === 0) return;
  const subscriberIds = await loadChannelSubscriberIds(scope.db, directory.users, channels.map((c) => c.id));
  const stats = await loadChannelStats(scope.db, channels, subscriberIds, scope.now);
  scope.notify({ event: { type: 'stream', op: 'create', streams: channels.map((c) => channelToWire(c, stats.get(c.id)!)) }, users: [me] });
}

/** The replica's user's own subscriptions, kept active, whose personal properties changed. */
function notifyOwnProperties(scope: ActionScope, me: number, oldSubscriptions: readonly SubscriptionRow[], bundles: readonly ChannelBundle[]): void {
  const old = new Map(oldSubscriptions.filter((s) => s.user_id === me && s.active === 1).map((s) => [s.channel_id, s]));
  for (const bundle of bundles) {
    const now = bundle.subscriptions.find((s) => s.user_id === me && s.active === 1);
    const before = old.get(bundle.channel.id);
    if (!now || !before) continue;
    for (const property of SUBSCRIPTION_PROPERTIES) {
      if (property === 'in_home_view' || before[property] === now[property]) continue;
      const change = { stream_id: now.channel_id, property, value: now[property] } as SubscriptionPropertyChange;
      for (const notice of subscriptionUpdateNotices(me, change)) scope.notify(notice);
    }
  }
}

/**
 * Channels the replica's user may no longer see (the hub's rows, as its events showed them):
 * `subscription` remove if they were subscribed (their row ended first, as on the hub), and
 * `stream` delete, told while the subscription rows are still here to be counted; then the
 * rows go.
 */
async function removeChannels(
  scope: ActionScope,
  me: number,
  channels: readonly ChannelRow[],
  activeBefore: ReadonlyMap<number, ReadonlySet<number>>,
): Promise<void> {
  if (channels.length === 0) return;
  const { db } = scope;
  const directory = await RealmDirectory.load(db);
  const meRow = directory.user(me);
  const left = channels.filter((channel) => activeBefore.get(channel.id)?.has(me));
  for (const channel of left) await db.subscriptions.update([me, channel.id], { active: 0 });
  if (left.length > 0) await notifyUnsubscribed(scope, directory, left.map((channel) => ({ user: meRow, channel })));
  // Leaving tells of the deletion only for a private channel; any other way out of sight is told here, in one event as the hub's.
  const unseen = channels.filter((channel) => !left.includes(channel) || canSeeChannelMetadata(meRow, channel, false));
  if (unseen.length > 0) {
    scope.notify({ event: streamDeleteEvent(await loadChannelWires(db, directory.users, unseen, scope.now)), users: [me] });
  }
  await db.channels.bulkDelete(channels.map((channel) => channel.id));
}
