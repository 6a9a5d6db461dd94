import { badRequest, streamDoesNotExistByName } from '../errors/api-error.ts';
import { checkColor } from '../validation/channel-colors.ts';
import { checkChannelName } from '../validation/channel-names.ts';
import { MAX_BULK_NEW_SUBSCRIPTION_MESSAGES } from '../validation/message-limits.ts';
import { RealmDirectory } from '../directory/realm-directory.ts';
import { type ChannelRow, ROLE_GUEST, type UserRow } from '../storage/rows.ts';
import { type CreateChannelInput, createChannel } from './channels.ts';
import type { ActionScope, CallerScope } from '../services/action-scope.ts';
import { sendMessage } from './send-message.ts';
import { canAddSubscribers, canReachChannel, canUnsubscribe, type Principals, resolvePrincipals } from './subscription-access.ts';
import { type SubscriptionPair, subscribeUsers, unsubscribeUsers } from './subscriptions.ts';
import { isReplicaDatabase, refuseOnReplica } from '../storage/replica-database.ts';

/** One entry of `subscriptions` (POST) or `add` (PATCH), as sent. */
export interface ChannelRequest {
  name: string;
  /** Used only if the channel is created. */
  description?: string;
  /** The personal color of a new subscription. */
  color?: string;
}

/** How channels this request creates are set up (POST /users/me/subscriptions, as for 4.3). */
export type NewChannelSettings = Omit<CreateChannelInput, 'name' | 'description' | 'subscriberIds' | 'color' | 'announce'>;

export interface AddSubscriptionsInput {
  channels: ChannelRequest[];
  /** Absent or empty: the caller. */
  principals?: Principals;
  authorizationErrorsFatal: boolean;
  announce: boolean;
  newChannels: NewChannelSettings;
}

/** Channel names per user id (as a string key), as the subscribe responses list them. */
export type NamesByUser = Record<string, string[]>;

export type AddSubscriptionsResult = {
  subscribed: NamesByUser;
  already_subscribed: NamesByUser;
  unauthorized?: string[];
};

/** How a channel created by PATCH `add` is set up: upstream's defaults for a new channel. */
const DEFAULT_NEW_CHANNEL: NewChannelSettings = {
  inviteOnly: false,
  isWebPublic: false,
  isDefaultStream: false,
  folderId: null,
  topicsPolicy: 'inherit',
  historyPublicToSubscribers: undefined,
  messageRetentionDays: 'realm_default',
  groupSettings: {},
};

/** Upstream refuses every subscribe request from a guest, even one only unsubscribing (PATCH). */
function refuseGuests(user: UserRow): void {
  if (user.role === ROLE_GUEST) throw badRequest('Not allowed for guest users');
}

/** Names checked as upstream checks them, and colors as hex colors; descriptions stay as sent. */
function checkChannelRequests(requests: readonly ChannelRequest[]): ChannelRequest[] {
  return requests.map((r) => ({
    name: checkChannelName(r.name),
    ...(r.description !== undefined && { description: r.description }),
    ...(r.color !== undefined && { color: checkColor('add.color', r.color) }),
  }));
}

/**
 * POST /users/me/subscriptions: subscribes the principals (default: the caller) to existing
 * channels the caller can access, creating missing ones the caller may create. A channel the
 * caller cannot access is an error, or with `authorization_errors_fatal` false is listed as
 * `unauthorized`; subscribing others needs permission to add subscribers to every channel.
 * Users subscribed by someone else hear it from the notification bot.
 */
export async function addSubscriptions(scope: CallerScope, input: AddSubscriptionsInput): Promise<AddSubscriptionsResult> {
  refuseGuests(scope.caller);
  return subscribe(scope, { ...input, channels: checkChannelRequests(input.channels) });
}

/** DELETE /users/me/subscriptions: see `unsubscribe`. */
export async function removeSubscriptions(scope: CallerScope, input: RemoveSubscriptionsInput): Promise<RemoveSubscriptionsResult> {
  return unsubscribe(scope, { ...input, names: input.names.map(checkChannelName) });
}

/**
 * PATCH /users/me/subscriptions: subscribes the caller to `add` (creating missing channels with
 * the defaults) then unsubscribes them from `remove`, every request checked before either.
 */
export async function changeSubscriptions(
  scope: CallerScope,
  input: { add: ChannelRequest[]; remove: string[] },
): Promise<AddSubscriptionsResult & RemoveSubscriptionsResult> {
  refuseGuests(scope.caller);
  const channels = checkChannelRequests(input.add);
  const names = input.remove.map(checkChannelName);
  const added = await subscribe(scope, { channels, authorizationErrorsFatal: true, announce: false, newChannels: DEFAULT_NEW_CHANNEL });
  // The removal sees the channels the addition created.
  const removed = await unsubscribe({ ...scope, directory: await RealmDirectory.load(scope.db) }, { names });
  return { ...added, ...removed };
}

/** Subscribes as `addSubscriptions` describes; the requests are checked. */
async function subscribe(scope: CallerScope, input: AddSubscriptionsInput): Promise<AddSubscriptionsResult> {
  const { caller } = scope;
  let { directory } = scope;
  const targets = input.principals?.length ? resolvePrincipals(directory, caller, input.principals) : [caller];
  const subscribingOthers = targets.some((u) => u.id !== caller.id);

  const existing = new Map<number, ChannelRow>();
  const missing = new Map<string, ChannelRequest>();
  const colors = new Map<number, string>();
  for (const request of input.channels) {
    const channel = directory.channelByName(request.name);
    if (!channel) {
      if (!missing.has(request.name.toLowerCase())) missing.set(request.name.toLowerCase(), request);
      continue;
    }
    existing.set(channel.id, channel);
    if (request.color !== undefined) colors.set(channel.id, request.color);
  }

  const callerChannels = await activeChannelIds(scope, caller.id);
  const unauthorized = [...existing.values()].filter((c) => !canReachChannel(caller, c, callerChannels.has(c.id), directory));
  if (unauthorized.length > 0 && input.authorizationErrorsFatal) {
    throw badRequest(`Unable to access channel (${unauthorized[0].name}).`);
  }
  const authorized = [...existing.values()].filter((c) => !unauthorized.includes(c));
  if (subscribingOthers && authorized.some((c) => !canAddSubscribers(caller, c, directory))) {
    throw badRequest('Insufficient permission');
  }

  const created: ChannelRow[] = [];
  if (missing.size > 0) await refuseOnReplica(scope.db);
  for (const request of missing.values()) {
    // Each creation sees the channels created before it.
    const { id } = await createChannel({ ...scope, directory }, {
      ...input.newChannels,
      name: request.name,
      description: request.description ?? '',
      // Upstream subscribes only the principals (the caller when none are given).
      subscriberIds: targets.map((u) => u.id),
      ...(request.color === undefined ? {} : { color: request.color }),
      announce: input.announce,
    });
    directory = await RealmDirectory.load(scope.db);
    created.push(directory.channels.get(id)!);
  }

  const { subscribed, alreadySubscribed } = await subscribeUsers(scope, directory, authorized, targets, { colors });
  const creations = created.flatMap((channel) => targets.map((user) => ({ user, channel })));
  await tellSubscribedUsers(scope, directory, caller, subscribed);

  const result: AddSubscriptionsResult = {
    subscribed: namesByUser(uniquePairs([...subscribed, ...creations])),
    already_subscribed: namesByUser(alreadySubscribed),
  };
  if (!input.authorizationErrorsFatal) result.unauthorized = unauthorized.map((c) => c.name);
  return result;
}

export interface RemoveSubscriptionsInput {
  names: string[];
  /** Absent or empty: the caller. */
  principals?: Principals;
}

export type RemoveSubscriptionsResult = { removed: string[]; not_removed: string[] };

/**
 * Unsubscribes the principals (default: the caller) from the named channels (spec 4.12);
 * the names are checked. Every name must be a channel; removing someone else needs one of the
 * three rules of `canUnsubscribe` for every channel.
 */
async function unsubscribe(scope: CallerScope, input: RemoveSubscriptionsInput): Promise<RemoveSubscriptionsResult> {
  const { directory, caller } = scope;
  const targets = input.principals?.length ? resolvePrincipals(directory, caller, input.principals) : [caller];
  const channels = new Map<number, ChannelRow>();
  for (const name of input.names) {
    const channel = directory.channelByName(name);
    if (!channel) throw streamDoesNotExistByName(name);
    channels.set(channel.id, channel);
  }
  const callerChannels = await activeChannelIds(scope, caller.id);
  for (const target of targets) {
    for (const channel of channels.values()) {
      if (!canUnsubscribe(caller, target, channel, callerChannels.has(channel.id), directory)) {
        throw badRequest('Insufficient permission');
      }
    }
  }
  const { removed, notRemoved } = await unsubscribeUsers(scope, directory, [...channels.values()], targets);
  return { removed: removed.map((p) => p.channel.name), not_removed: notRemoved.map((p) => p.channel.name) };
}

async function activeChannelIds(scope: ActionScope, userId: number): Promise<Set<number>> {
  const subs = await scope.db.subscriptions.where('[user_id+active]').equals([userId, 1]).toArray();
  return new Set(subs.map((s) => s.channel_id));
}

function uniquePairs(pairs: readonly SubscriptionPair[]): SubscriptionPair[] {
  const seen = new Set<string>();
  return pairs.filter(({ user, channel }) => {
    const key = `${user.id}:${channel.id}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function namesByUser(pairs: readonly SubscriptionPair[]): NamesByUser {
  const names: NamesByUser = {};
  for (const { user, channel } of pairs) (names[String(user.id)] ??= []).push(channel.name);
  return names;
}

const silentMention = (user: UserRow) => `@_**${user.full_name}|${user.id}**`;

/**
 * Upstream's note from the notification bot to each human subscribed by someone else (not for
 * channels just created, which announce themselves), skipped for bulk subscriptions of more
 * than `max_bulk_new_subscription_messages` users.
 */
async function tellSubscribedUsers(
  scope: ActionScope,
  directory: RealmDirectory,
  caller: UserRow,
  subscribed: readonly SubscriptionPair[],
): Promise<void> {
  const botId = directory.realm.notification_bot_id;
  const bot = botId === null ? undefined : directory.users.get(botId);
  const told = new Map<UserRow, string[]>();
  for (const { user, channel } of subscribed) {
    if (user.id === caller.id || user.is_bot) continue;
    const names = told.get(user);
    if (names) names.push(channel.name);
    else told.set(user, [channel.name]);
  }
  if (!bot || told.size === 0 || told.size > MAX_BULK_NEW_SUBSCRIPTION_MESSAGES) return;
  // On a sync replica the hub sends these when it applies the same request; written here too,
  // they would be direct messages to others that its user never sees and no hub confirms.
  if (await isReplicaDatabase(scope.db)) return;
  for (const [user, names] of told) {
    const sorted = [...names].sort();
    const content =
      sorted.length === 1
        ? `${silentMention(caller)} subscribed you to #**${sorted[0]}**.`
        : `${silentMention(caller)} subscribed you to the following channels:\n\n${sorted.map((n) => `* #**${n}**\n`).join('')}`;
    await sendMessage(scope, directory, {
      sender: bot,
      to: { kind: 'direct', users: [{ id: user.id }] },
      content,
      client: 'Internal',
      readBySender: false,
    });
  }
}
