import { generateUrlKey, sameKey } from '../auth/url-keys.ts';
import { badRequest } from '../errors/api-error.ts';
import { realmPermissionGroup } from '../permissions/realm-permissions.ts';
import { isInGroupSetting } from '../permissions/system-groups.ts';
import type { CallerScope, ReadScope } from '../services/action-scope.ts';
import { nextId } from '../storage/database.ts';
import { type MultiuseInviteRow, type RealmRow, type Role, ROLE_ADMIN, ROLE_OWNER, type UserRow } from '../storage/rows.ts';
import { API_PREFIX, realmUrl } from '../wire/paths.ts';
import { createUser, joinInvitedChannelsAndGroups, sendWelcomeText } from './create-user.ts';
import { checkInviteTargets, checkRoleBasedPermission, hasExpired, isValidEmail, notifyInvitesChanged } from './invites.ts';
import { requireMemberOrAdmin } from './user-groups.ts';

export interface InviteLinkInput {
  /** null: never expires. */
  expiresInMinutes: number | null;
  inviteAs: Role;
  streamIds: number[];
  groupIds: number[];
  includeRealmDefaultSubscriptions: boolean;
  /** undefined: not given (the organization default applies). */
  welcomeMessageCustomText: string | undefined;
}

/**
 * The link's address: the sandbox route that creates an account with it (README, "Sandbox
 * routes"), since no registration page exists here. It carries the link's confirmation key;
 * the id alone is a counter anyone can guess.
 */
const linkUrl = (realm: RealmRow, invite: MultiuseInviteRow): string =>
  `${realmUrl(realm)}${API_PREFIX}/sandbox/invites/multiuse/${invite.id}/accept?key=${invite.confirmation_key}`;

/**
 * POST /invites/multiuse: upstream's checks in its order (the realm's
 * `create_multiuse_invite_group`, the role, the channels, the groups), then one link.
 */
export async function createInviteLink(scope: CallerScope, input: InviteLinkInput): Promise<string> {
  const { directory, caller: referrer } = scope;
  requireMemberOrAdmin(referrer);
  if (!isInGroupSetting(referrer, realmPermissionGroup(directory.realm, 'create_multiuse_invite_group'), directory.groups)) {
    throw badRequest('Insufficient permission');
  }
  checkRoleBasedPermission(referrer, input.inviteAs);
  await checkInviteTargets(scope, input.streamIds, input.groupIds);
  const invite: MultiuseInviteRow = {
    id: await nextId(scope.db, 'multiuse_invite'),
    invited_by: referrer.id,
    invite_as: input.inviteAs,
    stream_ids: [...new Set(input.streamIds)],
    group_ids: [...new Set(input.groupIds)],
    include_realm_default_subscriptions: input.includeRealmDefaultSubscriptions,
    // Only administrators choose the welcome text (spec 4.9, as for email invitations).
    welcome_message_custom_text: referrer.role <= ROLE_ADMIN ? (input.welcomeMessageCustomText ?? null) : null,
    invited_at: scope.now,
    expires_at: input.expiresInMinutes === null ? null : scope.now + input.expiresInMinutes * 60,
    status: 'active',
    confirmation_key: generateUrlKey(),
  };
  await scope.db.multiuse_invites.add(invite);
  notifyInvitesChanged(scope, directory, referrer.id);
  return linkUrl(directory.realm, invite);
}

/**
 * The links the caller manages: their own, and for administrators everyone's, except another
 * user's owner links for those who are not owners: the link would hand them an owner account
 * (as the sandbox's outgoing mail never shows them an owner invitation's key).
 */
const managesLink = (user: UserRow, invite: MultiuseInviteRow): boolean =>
  invite.invited_by === user.id || (user.role <= ROLE_ADMIN && (invite.invite_as !== ROLE_OWNER || user.role === ROLE_OWNER));

/** GET /invites' reusable links: unexpired and not revoked, in upstream's shape. */
export async function inviteLinksControlledBy(scope: ReadScope): Promise<Record<string, unknown>[]> {
  const { caller: user, now, directory } = scope;
  requireMemberOrAdmin(user);
  const invites = await scope.db.multiuse_invites.orderBy('id').toArray();
  return invites
    .filter((invite) => invite.status === 'active' && !hasExpired(invite, now) && managesLink(user, invite))
    .map((invite) => ({
      id: invite.id,
      invited_by_user_id: invite.invited_by,
      invited: invite.invited_at,
      expiry_date: invite.expires_at,
      invited_as: invite.invite_as,
      link_url: linkUrl(directory.realm, invite),
      is_multiuse: true,
    }));
}

/**
 * DELETE /invites/multiuse/{id}: their own link for anyone who may invite, any link for
 * administrators (owner links for owners only); upstream's messages in its order.
 */
export async function revokeInviteLink(scope: CallerScope, inviteId: number): Promise<void> {
  const { caller: user } = scope;
  requireMemberOrAdmin(user);
  const invite = await scope.db.multiuse_invites.get(inviteId);
  if (!invite) throw badRequest('No such invitation');
  if (invite.invited_by !== user.id) {
    if (invite.invite_as === ROLE_OWNER && user.role !== ROLE_OWNER) throw badRequest('Must be an organization owner');
    if (user.role > ROLE_ADMIN) throw badRequest('Must be an organization administrator');
  }
  if (invite.status === 'revoked') throw badRequest('Invitation has already been revoked');
  await scope.db.multiuse_invites.update(invite.id, { status: 'revoked' });
  notifyInvitesChanged(scope, scope.directory, invite.invited_by);
}

export interface JoinInput {
  inviteId: number;
  key: string;
  email: string;
  fullName: string;
  passwordHash: string;
}

/**
 * Creates an account with a reusable link (the sandbox route): upstream asks the address to
 * confirm by mail first, which no sandbox can; the link stays usable for the next person.
 * The account gets the link's role, channels (and the default channels when it says so)
 * and groups, and the welcome bot sends the link's welcome text; its referrer is not told, as
 * upstream's links tell no one.
 */
export async function joinWithInviteLink(scope: CallerScope<null>, input: JoinInput): Promise<UserRow> {
  const invite = await scope.db.multiuse_invites.get(input.inviteId);
  // A wrong key tells nothing about the link, not even that it exists.
  if (!invite || !sameKey(input.key, invite.confirmation_key)) throw badRequest('No such invitation');
  if (invite.status === 'revoked') throw badRequest('The invitation has been revoked.');
  if (hasExpired(invite, scope.now)) throw badRequest('The invitation has expired.');
  if (!isValidEmail(input.email)) throw badRequest('Enter a valid email address.');
  // Deactivated accounts keep their address too.
  if (scope.directory.usersByEmail.has(input.email.toLowerCase())) throw badRequest(`${input.email} already has an account`);
  const user = await createUser(scope, {
    email: input.email,
    fullName: input.fullName,
    role: invite.invite_as,
    passwordHash: input.passwordHash,
  });
  await joinInvitedChannelsAndGroups(scope, user, invite);
  await sendWelcomeText(scope, user, invite.welcome_message_custom_text);
  return user;
}
