import { generateUrlKey, sameKey } from '../auth/url-keys.ts';
import { generateApiKey } from '../auth/passwords.ts';
import { badRequest } from '../errors/api-error.ts';
import { RealmDirectory } from '../directory/realm-directory.ts';
import { recipientFor } from '../storage/recipients.ts';
import { userToWire } from '../wire/user-wire.ts';
import type { Notice } from '../events/event-types.ts';
import { FIRST_USER_ID, nextId } from '../storage/database.ts';
import type { ChannelRow, InviteRow, Role, UserRow } from '../storage/rows.ts';
import { notifyInvitesChanged } from './invites.ts';
import type { ActionScope, CallerScope } from '../services/action-scope.ts';
import { sendMessage } from './send-message.ts';
import { subscribeUsers } from './subscriptions.ts';
import { joinGroups } from './user-groups.ts';

export interface NewUser {
  email: string;
  fullName: string;
  role: Role;
  /** Hashed before the transaction (hashing is async work outside IndexedDB). */
  passwordHash: string | null;
}

/**
 * Creates a human account: the next user id, a personal recipient and an API key; tells
 * every active user with a `realm_user` add event, each seeing the email they may see.
 */
export async function createUser(scope: ActionScope, input: NewUser): Promise<UserRow> {
  const id = await nextId(scope.db, 'user', FIRST_USER_ID);
  const realm = await scope.db.realm.get(1);
  const user: UserRow = {
    id,
    email: input.email,
    email_key: input.email.toLowerCase(),
    full_name: input.fullName,
    role: input.role,
    is_bot: false,
    is_system_bot: false,
    bot_type: null,
    bot_owner_id: null,
    is_active: true,
    api_key: generateApiKey(),
    avatar_key: generateUrlKey(),
    password_hash: input.passwordHash,
    timezone: '',
    date_joined: scope.now,
    avatar_version: 1,
    recipient_id: await recipientFor(scope.db, `user:${id}`),
    // The organization's defaults for new accounts, as of now.
    settings: { ...realm?.user_settings_defaults },
  };
  await scope.db.users.add(user);
  // As upstream, the address's other pending invitations can no longer be used (one being
  // accepted is marked accepted right after).
  await scope.db.invites.where('email_key').equals(user.email_key).filter((i) => i.status === 'pending').modify({ status: 'revoked' });
  const directory = await RealmDirectory.load(scope.db);
  scope.notify(realmUserAddNotice(directory, user, [...directory.users.values()].filter((u) => u.is_active && !u.is_system_bot)));
  return user;
}

/** `realm_user` add of a new user, each viewer seeing the email they may see. A replica emits it too. */
export function realmUserAddNotice(directory: RealmDirectory, user: UserRow, viewers: readonly UserRow[]): Notice {
  return {
    event: { type: 'realm_user', op: 'add' },
    users: viewers.map((v) => v.id),
    perUser: new Map(
      viewers.map((viewer) => [
        viewer.id,
        { person: userToWire(user, directory.realm, { viewer, includeProfileData: true, avatarUrlOptional: false }) },
      ]),
    ),
  };
}

/**
 * Accepts an invitation (the sandbox route): creates the invited account with the invited
 * role, subscribes it to the invitation's channels (and the default channels when asked),
 * adds it to the invitation's groups, marks the invitation used, and sends the join messages.
 */
export async function acceptInvite(
  scope: CallerScope<null>,
  { inviteId, key, ...account }: { inviteId: number; key: string; fullName: string; passwordHash: string },
): Promise<UserRow> {
  const invite = await scope.db.invites.get(inviteId);
  // A wrong key tells nothing about the invitation, not even that it exists.
  if (!invite || !sameKey(key, invite.confirmation_key)) throw badRequest('No such invitation');
  if (invite.status === 'revoked') throw badRequest('The invitation has been revoked.');
  if (invite.status === 'accepted') throw badRequest('The invitation has already been accepted.');
  if (invite.expires_at !== null && invite.expires_at <= scope.now) throw badRequest('The invitation has expired.');
  if (scope.directory.usersByEmail.has(invite.email_key)) {
    throw badRequest(`${invite.email} already has an account`);
  }

  const user = await createUser(scope, {
    email: invite.email,
    fullName: account.fullName,
    role: invite.invite_as,
    passwordHash: account.passwordHash,
  });
  const directory = await joinInvitedChannelsAndGroups(scope, user, invite);
  await scope.db.invites.update(invite.id, { status: 'accepted', accepted_user_id: user.id });
  notifyInvitesChanged(scope, directory, invite.invited_by);
  await sendJoinMessages(scope, user, invite);
  return user;
}

/**
 * Subscribes a new account to an invitation's channels (and the default channels when it
 * says so; archived ones are skipped) and adds it to the invitation's groups.
 */
export async function joinInvitedChannelsAndGroups(
  scope: ActionScope,
  user: UserRow,
  invite: Pick<InviteRow, 'stream_ids' | 'group_ids' | 'include_realm_default_subscriptions'>,
): Promise<RealmDirectory> {
  const directory = await RealmDirectory.load(scope.db);
  const channelIds = new Set(invite.stream_ids);
  if (invite.include_realm_default_subscriptions) directory.realm.default_channel_ids.forEach((id) => channelIds.add(id));
  const channels = [...channelIds].map((id) => directory.channels.get(id)).filter((c): c is ChannelRow => c !== undefined && !c.is_archived);
  await subscribeUsers(scope, directory, channels, [user]);
  await joinGroups(scope, user.id, invite.group_ids);
  return directory;
}

/**
 * The notification bot tells the referrer (when they asked for it), and the welcome bot
 * sends the invitation's custom welcome text.
 */
async function sendJoinMessages(scope: ActionScope, user: UserRow, invite: InviteRow): Promise<void> {
  const directory = await RealmDirectory.load(scope.db);
  const { realm } = directory;
  const referrer = directory.users.get(invite.invited_by);
  const notificationBot = realm.notification_bot_id === null ? undefined : directory.users.get(realm.notification_bot_id);
  if (invite.notify_referrer_on_join && referrer?.is_active && notificationBot) {
    await sendMessage(scope, directory, {
      sender: notificationBot,
      to: { kind: 'direct', users: [{ id: referrer.id }] },
      content: `@_**${user.full_name}|${user.id}** accepted your invitation to join Zulip!`,
      client: 'Internal',
    });
  }
  await sendWelcomeText(scope, user, invite.welcome_message_custom_text);
}

/**
 * The welcome bot sends an invitation's custom welcome text to its new account. A null text
 * means the organization's default, which is empty here as in a new upstream realm; an empty
 * text sends nothing.
 */
export async function sendWelcomeText(scope: ActionScope, user: UserRow, text: string | null): Promise<void> {
  const directory = await RealmDirectory.load(scope.db);
  const welcomeBot = directory.userByApiEmail(`welcome-bot@${directory.realm.host}`);
  if (!text || !welcomeBot?.is_system_bot) return;
  await sendMessage(scope, directory, {
    sender: welcomeBot,
    to: { kind: 'direct', users: [{ id: user.id }] },
    content: text,
    client: 'Internal',
  });
}
