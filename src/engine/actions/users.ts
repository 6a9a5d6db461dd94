import { ApiError, badRequest, unauthorizedPrincipal } from '../errors/api-error.ts';
import type { Notice } from '../events/event-types.ts';
import { loadChannelStats, loadChannelSubscriberIds, loadChannelWires } from '../wire/channel-stats.ts';
import { canSeeChannelMetadata } from '../permissions/channel-visibility.ts';
import { channelViewerIds } from '../permissions/channel-access.ts';
import { channelToWire, streamDeleteEvent } from '../wire/channel-wire.ts';
import { apiEmail, canSeeRealEmail, userByVisibleEmail } from '../permissions/email-visibility.ts';
import { RealmDirectory } from '../directory/realm-directory.ts';
import {
  GROUP_ADMINISTRATORS,
  GROUP_EVERYONE,
  GROUP_FULL_MEMBERS,
  GROUP_MODERATORS,
  GROUP_OWNERS,
} from '../permissions/system-groups.ts';
import { nextId } from '../storage/database.ts';
import { charLength } from '../validation/message-limits.ts';
import { type ChannelRow, ROLE_ADMIN, ROLE_GUEST, ROLE_OWNER, type Role, type UserRow } from '../storage/rows.ts';
import { activeUserIds, type ProfileDataEntry, setProfileData } from './profile-fields.ts';
import type { ActionScope, CallerScope } from '../services/action-scope.ts';
import { botAdministratorIds } from '../wire/bot-wire.ts';

const MAX_NAME_LENGTH = 100;
/** Characters upstream refuses in names: they would break Markdown mentions. */
const NAME_INVALID_CHARS = ['*', '`', '\\', '>', '"', '@'];
const MAX_EMAIL_LENGTH = 254;

/** The role group that holds a role's users directly (upstream's nested system groups). */
const ROLE_GROUP: Record<Role, number> = {
  100: GROUP_OWNERS,
  200: GROUP_ADMINISTRATORS,
  300: GROUP_MODERATORS,
  400: GROUP_FULL_MEMBERS,
  600: GROUP_EVERYONE,
};

export interface UserChanges {
  /** The `/users/{user_id}` segment: an id or an email. */
  userKey: string;
  fullName?: string;
  role?: Role;
  profileData?: ProfileDataEntry[];
  newEmail?: string;
}

const noSuchUser = () => badRequest('No such user');
const insufficientPermission = () => badRequest('Insufficient permission');
const ownerRequired = () => unauthorizedPrincipal('Must be an organization owner');

/**
 * The user a `/users/{user_id}` segment names: digits are an id; anything else an email, the
 * dummy `user{id}@{host}` finding anyone and a real email only a user whose real email the
 * viewer may see (spec 4.4).
 */
export function userByKey(directory: RealmDirectory, viewer: UserRow, key: string): UserRow | undefined {
  if (/^\d+$/.test(key)) return directory.users.get(Number(key));
  return userByVisibleEmail(directory, viewer, key);
}

/** `userByKey` for administration: system bots are not realm members. */
function findUserByKey(directory: RealmDirectory, viewer: UserRow, key: string): UserRow {
  const user = userByKey(directory, viewer, key);
  if (!user || user.is_system_bot) throw noSuchUser();
  return user;
}

/** A display name as upstream accepts it (trimmed; returns the trimmed name). */
export function checkFullName(raw: string): string {
  const name = raw.trim();
  if (charLength(name) > MAX_NAME_LENGTH) throw badRequest('Name too long!');
  if (name.length === 0) throw badRequest('Name must not be empty!');
  // Control characters and Markdown-breaking ones.
  if (/\p{Cc}/u.test(name) || NAME_INVALID_CHARS.some((c) => name.includes(c))) throw badRequest('Invalid characters in name!');
  // `Name|15` would be ambiguous with the `@**Name|15**` mention syntax.
  if (/\|\d+$/.test(raw)) throw badRequest('Invalid format!');
  return name;
}

/** Whether `email` can become an account's address: a plausible address no other account uses. */
export function checkNewEmail(directory: RealmDirectory, email: string): void {
  if (email.length > MAX_EMAIL_LENGTH || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw badRequest('Invalid address.');
  const existing = directory.usersByEmail.get(email.toLowerCase());
  if (existing) throw badRequest(existing.is_active ? 'Already has an account.' : 'Account has been deactivated.');
}

/** Renames a user and tells everyone; nothing happens when the name does not change. */
export async function renameUser(scope: ActionScope, directory: RealmDirectory, target: UserRow, raw: string): Promise<void> {
  const fullName = checkFullName(raw);
  if (fullName === target.full_name) return;
  await scope.db.users.update(target.id, { full_name: fullName });
  scope.notify({
    event: { type: 'realm_user', op: 'update', person: { user_id: target.id, full_name: fullName } },
    users: activeUserIds(directory),
  });
  if (target.is_bot) {
    scope.notify({
      event: { type: 'realm_bot', op: 'update', bot: { user_id: target.id, full_name: fullName } },
      users: botAdministratorIds(directory, target),
    });
  }
}

/**
 * PATCH /users/{user_id} (spec 4.11): administrators change another user's role, name, custom
 * profile data, and (owners only) email. Every check runs before any write.
 */
export async function updateUser(scope: CallerScope, changes: UserChanges): Promise<void> {
  const { directory, caller: actor } = scope;
  const target = findUserByKey(directory, actor, changes.userKey);
  if (actor.role > ROLE_ADMIN) throw insufficientPermission();
  const role = changes.role !== undefined && changes.role !== target.role ? changes.role : undefined;
  if (role !== undefined) checkRoleChange(directory, actor, target, role);
  const fullName = changes.fullName !== undefined && changes.fullName !== target.full_name && changes.fullName.trim() !== ''
    ? checkFullName(changes.fullName)
    : undefined;
  const newEmail = changes.newEmail?.trim();
  const emailChanges = newEmail !== undefined && newEmail !== target.email;
  if (emailChanges) {
    if (actor.role !== ROLE_OWNER) throw ownerRequired();
    // Spec 4.11: owners also need upstream's special permission.
    if (actor.can_change_user_emails !== true) throw badRequest('User not authorized to change user emails');
    checkNewEmail(directory, newEmail);
  }

  if (role !== undefined) await changeRole(scope, directory, target, role);
  if (fullName !== undefined) await renameUser(scope, directory, target, fullName);
  if (changes.profileData) await setProfileData(scope, directory, actor, target, changes.profileData);
  if (emailChanges) await changeEmail(scope, directory, target, newEmail);
}

/**
 * Only owners grant or remove the owner role; the only owner keeps it; a guest is not made an
 * administrator in one step (spec 4.11).
 */
function checkRoleChange(directory: RealmDirectory, actor: UserRow, target: UserRow, role: Role): void {
  if ((role === ROLE_OWNER || target.role === ROLE_OWNER) && actor.role !== ROLE_OWNER) throw ownerRequired();
  if (target.role === ROLE_OWNER && isOnlyOwner(directory, target)) {
    throw badRequest('The owner permission cannot be removed from the only organization owner.');
  }
  if (target.role === ROLE_GUEST && role <= ROLE_ADMIN) throw badRequest('Guests cannot be organization administrators');
}

function isOnlyOwner(directory: RealmDirectory, target: UserRow): boolean {
  if (target.role !== ROLE_OWNER || target.is_bot) return false;
  return ![...directory.users.values()].some((u) => u.id !== target.id && u.role === ROLE_OWNER && u.is_active && !u.is_bot);
}

/** The role, then the membership of the role groups, which follows the role. */
async function changeRole(scope: ActionScope, directory: RealmDirectory, target: UserRow, role: Role): Promise<void> {
  await scope.db.users.update(target.id, { role });
  const users = activeUserIds(directory);
  scope.notify({ event: { type: 'realm_user', op: 'update', person: { user_id: target.id, role } }, users });
  if (!target.is_active) return;
  for (const notice of roleGroupNotices(target.id, target.role, role, users)) scope.notify(notice);
  const changed = { ...target, role };
  await notifyChannelVisibility(scope, directory, target, changed);
  notifyEmailVisibility(scope, directory, target, changed);
}

/**
 * The role groups' membership a role change moves, as upstream tells it: computed from the role
 * rather than stored, so a replica learning the new role tells it too.
 */
export function roleGroupNotices(userId: number, from: Role, to: Role, users: number[]): Notice[] {
  const membership = (op: string, groupId: number): Notice => ({ event: { type: 'user_group', op, group_id: groupId, user_ids: [userId] }, users });
  return [membership('remove_members', ROLE_GROUP[from]), membership('add_members', ROLE_GROUP[to])];
}

/**
 * The channels a role change reveals or hides (a guest becoming a member sees the public
 * channels, a member becoming a guest stops seeing them; administrators see private ones):
 * the user's clients learn of them as upstream's `stream` `create` and `delete`.
 */
async function notifyChannelVisibility(scope: ActionScope, directory: RealmDirectory, before: UserRow, after: UserRow): Promise<void> {
  const subscribed = new Set(
    (await scope.db.subscriptions.where('[user_id+active]').equals([before.id, 1]).toArray()).map((s) => s.channel_id),
  );
  const channels = [...directory.channels.values()].filter((c) => !c.is_archived).sort((a, b) => a.id - b.id);
  const sees = (user: UserRow, channel: ChannelRow) => canSeeChannelMetadata(user, channel, subscribed.has(channel.id));
  const gained = channels.filter((c) => !sees(before, c) && sees(after, c));
  const lost = channels.filter((c) => sees(before, c) && !sees(after, c));
  if (gained.length > 0) {
    const subscriberIds = await loadChannelSubscriberIds(scope.db, directory.users, gained.map((c) => c.id));
    const stats = await loadChannelStats(scope.db, gained, subscriberIds, scope.now);
    scope.notify({
      event: { type: 'stream', op: 'create', streams: gained.map((c) => channelToWire(c, stats.get(c.id)!)) },
      users: [after.id],
    });
  }
  if (lost.length > 0) {
    scope.notify({ event: streamDeleteEvent(await loadChannelWires(scope.db, directory.users, lost, scope.now)), users: [after.id] });
  }
}

/**
 * Under a role-based email_address_visibility the role decides whose real emails the user
 * sees: each user whose address the user now sees (or no longer sees) is re-sent to them,
 * as `delivery_email` (null when hidden) and as the API `email`.
 */
function notifyEmailVisibility(scope: ActionScope, directory: RealmDirectory, before: UserRow, after: UserRow): void {
  const { realm } = directory;
  const others = [...directory.users.values()].sort((a, b) => a.id - b.id);
  for (const other of others) {
    if (other.is_system_bot || other.id === after.id) continue;
    const seen = canSeeRealEmail(realm, after, other);
    if (seen === canSeeRealEmail(realm, before, other)) continue;
    const person = (fields: Record<string, unknown>) => ({
      event: { type: 'realm_user', op: 'update', person: { user_id: other.id, ...fields } },
      users: [after.id],
    });
    scope.notify(person({ delivery_email: seen ? other.email : null }));
    scope.notify(person({ new_email: apiEmail(realm, after, other) }));
  }
}

/**
 * The new address reaches those who may see the real one, as both `delivery_email` and the
 * API `email`; everyone else keeps seeing the unchanged dummy address.
 */
async function changeEmail(scope: ActionScope, directory: RealmDirectory, target: UserRow, email: string): Promise<void> {
  await scope.db.users.update(target.id, { email, email_key: email.toLowerCase() });
  const seers = activeUserIds(directory).filter((id) => canSeeRealEmail(directory.realm, directory.user(id), target));
  scope.notify({ event: { type: 'realm_user', op: 'update', person: { user_id: target.id, delivery_email: email } }, users: seers });
  scope.notify({ event: { type: 'realm_user', op: 'update', person: { user_id: target.id, new_email: email } }, users: seers });
}

/**
 * DELETE /users/{user_id} (spec 4.18, section 3): deactivates a user and the bots they own.
 * A `notificationComment` (even empty) records a notification email to the user.
 */
export async function deactivateUser(
  scope: CallerScope,
  { userKey, notificationComment }: { userKey: string; notificationComment: string | undefined },
): Promise<void> {
  const { directory, caller: actor } = scope;
  const target = findUserByKey(directory, actor, userKey);
  if (target.is_bot) throw noSuchUser();
  if (!target.is_active) throw badRequest('User is deactivated');
  if (actor.role > ROLE_ADMIN) throw insufficientPermission();
  if (target.role === ROLE_OWNER && actor.role !== ROLE_OWNER) throw ownerRequired();
  if (isOnlyOwner(directory, target)) throw badRequest('Cannot deactivate the only organization owner');

  const ownedBots = [...directory.users.values()].filter((u) => u.is_bot && u.bot_owner_id === target.id && u.is_active);
  await setActive(scope, directory, [target, ...ownedBots], false);
  if (notificationComment !== undefined) await recordDeactivationMail(scope, directory, target, notificationComment.trim());
}

/** POST /users/{user_id}/reactivate: administrators bring back a deactivated user or bot. */
export async function reactivateUser(scope: CallerScope, userKey: string): Promise<void> {
  const { directory, caller: actor } = scope;
  const target = findUserByKey(directory, actor, userKey);
  if (actor.role > ROLE_ADMIN) throw insufficientPermission();
  if (target.is_active) throw badRequest('User is already active.');
  await setActive(scope, directory, [target], true);
}

/**
 * Flips `is_active` and tells the realm, then tells who sees each channel's subscribers that
 * these users left (or rejoined) its subscriber list: their subscriptions are kept, so a
 * reactivated user finds them again.
 */
async function setActive(scope: ActionScope, before: RealmDirectory, users: UserRow[], active: boolean): Promise<void> {
  await scope.db.users.bulkPut(users.map((u) => ({ ...u, is_active: active })));
  const after = await RealmDirectory.load(scope.db);
  const audience = activeUserIds(after);
  for (const user of users) {
    scope.notify({ event: { type: 'realm_user', op: 'update', person: { user_id: user.id, is_active: active } }, users: audience });
  }
  await notifySubscriberActivity(scope, before, after, users, active);
}

/**
 * Tells who sees each channel's subscribers that these users, (de)activated, left or rejoined
 * its subscriber list (`peer_remove` or `peer_add`). A replica emits them too.
 */
export async function notifySubscriberActivity(
  scope: ActionScope,
  before: RealmDirectory,
  after: RealmDirectory,
  users: readonly UserRow[],
  active: boolean,
): Promise<void> {
  const changedByChannel = new Map<number, number[]>();
  for (const user of users) {
    const subscriptions = await scope.db.subscriptions.where('[user_id+active]').equals([user.id, 1]).toArray();
    for (const { channel_id: channelId } of subscriptions) {
      const changed = changedByChannel.get(channelId) ?? [];
      changed.push(user.id);
      changedByChannel.set(channelId, changed);
    }
  }
  for (const [channelId, userIds] of changedByChannel) {
    const channel = before.channels.get(channelId);
    if (!channel || channel.is_archived) continue;
    const subscribers = (await scope.db.subscriptions.where('[channel_id+active]').equals([channelId, 1]).toArray())
      .map((s) => s.user_id)
      .filter((id) => after.users.get(id)?.is_active);
    const viewers = channelViewerIds(after, channel, subscribers).filter((id) => after.users.get(id)?.is_active);
    scope.notify({
      event: { type: 'subscription', op: active ? 'peer_add' : 'peer_remove', stream_ids: [channelId], user_ids: userIds },
      users: viewers,
    });
  }
}

/** No mail leaves the machine: the notification is recorded in `outgoing_mail`, viewable there. */
async function recordDeactivationMail(scope: ActionScope, directory: RealmDirectory, target: UserRow, comment: string): Promise<void> {
  const { realm } = directory;
  const lines = [
    `Hello ${target.full_name},`,
    '',
    `Your account on ${realm.name} (${realm.host}) has been deactivated, and you will no longer be able to log in.`,
  ];
  if (comment) lines.push('', 'The administrator provided the following comment:', '', comment);
  await scope.db.outgoing_mail.add({
    id: await nextId(scope.db, 'outgoing_mail'),
    to: target.email,
    subject: `Notification of account deactivation on ${realm.name}`,
    body: lines.join('\n'),
    sent_at: scope.now,
    kind: 'deactivation',
  });
}

/** Upstream refuses deactivating the last owner or the last user of a realm with this code. */
function cannotDeactivateLastUser(isLastOwner: boolean): ApiError {
  return new ApiError(isLastOwner ? 'Cannot deactivate the only organization owner' : 'Cannot deactivate the only user.', {
    code: 'CANNOT_DEACTIVATE_LAST_USER',
    extra: { is_last_owner: isLastOwner, entity: isLastOwner ? 'organization owner' : 'user' },
  });
}

/** DELETE /users/me: a user leaves the realm, unless they are its only owner or only user. */
export async function deactivateOwnUser(scope: CallerScope): Promise<void> {
  const { directory, caller: actor } = scope;
  const others = [...directory.users.values()].filter((u) => u.id !== actor.id && u.is_active && !u.is_system_bot);
  if (others.length === 0) throw cannotDeactivateLastUser(false);
  if (isOnlyOwner(directory, actor)) throw cannotDeactivateLastUser(true);
  const ownedBots = others.filter((u) => u.is_bot && u.bot_owner_id === actor.id);
  await setActive(scope, directory, [actor, ...ownedBots], false);
}
