import { generateUrlKey } from '../auth/url-keys.ts';
import { ApiError, badRequest } from '../errors/api-error.ts';
import { listTooLong, MAX_LIST_LENGTH } from '../validation/list-limits.ts';
import { API_PREFIX, realmUrl } from '../wire/paths.ts';
import { realmPermissionGroup } from '../permissions/realm-permissions.ts';
import { canReadChannel } from '../permissions/channel-access.ts';
import type { RealmDirectory } from '../directory/realm-directory.ts';
import { isInGroupSetting } from '../permissions/system-groups.ts';
import { nextId, type RealmDatabase } from '../storage/database.ts';
import {
  type ChannelRow,
  type InviteRow,
  type Role,
  ROLE_ADMIN,
  ROLE_OWNER,
  type UserRow,
} from '../storage/rows.ts';
import type { ActionScope, CallerScope, ReadScope } from '../services/action-scope.ts';
import { canAddSubscribers } from './subscription-access.ts';
import { accessUserGroup, mayAddMembers, requireMemberOrAdmin } from './user-groups.ts';

/** Upstream's INVITATION_LINK_VALIDITY_MINUTES (10 days). */
export const DEFAULT_INVITE_EXPIRY_MINUTES = 14400;
export const MAX_WELCOME_MESSAGE_LENGTH = 8000;

/** [email, reason, is_deactivated], as INVITATION_FAILED lists them. */
export type InviteSkip = [string, string, boolean];

export const invitationFailed = (msg: string, errors: InviteSkip[], sentInvitations: boolean): ApiError =>
  new ApiError(msg, {
    code: 'INVITATION_FAILED',
    extra: { errors, sent_invitations: sentInvitations, license_limit_reached: false, daily_limit_reached: false },
  });

export interface InviteInput {
  inviteeEmails: string;
  /** null: never expires. */
  expiresInMinutes: number | null;
  inviteAs: Role;
  streamIds: number[];
  groupIds: number[];
  includeRealmDefaultSubscriptions: boolean;
  notifyReferrerOnJoin: boolean;
  /** undefined: not given (the organization default applies). */
  welcomeMessageCustomText: string | undefined;
}

/**
 * POST /invites (spec 4.9): checks, in upstream's order, the caller's permission to invite and
 * to the role, the addresses, the channels and the groups; then records one invitation and
 * one outgoing mail per new address. Invalid addresses fail the whole request; addresses
 * that already have an account are skipped and returned, so the route can report them after
 * the others' invitations are committed.
 */
export async function sendInvites(scope: CallerScope, input: InviteInput): Promise<InviteSkip[]> {
  const { directory, caller: referrer } = scope;
  requireMemberOrAdmin(referrer);
  const { realm } = directory;
  if (!isInGroupSetting(referrer, realmPermissionGroup(realm, 'can_invite_users_group'), directory.groups)) {
    throw badRequest('Insufficient permission');
  }
  checkRoleBasedPermission(referrer, input.inviteAs);
  const emails = parseInviteeEmails(input.inviteeEmails);
  if (emails.length === 0) throw badRequest('You must specify at least one email address.');
  await checkInviteTargets(scope, input.streamIds, input.groupIds);

  const invalid: InviteSkip[] = emails.filter((email) => !isValidEmail(email)).map((email) => [email, 'Invalid address.', false]);
  const skipped: InviteSkip[] = [];
  for (const email of emails.filter(isValidEmail)) {
    const existing = directory.usersByEmail.get(email.toLowerCase());
    if (existing?.is_system_bot) skipped.push([email, 'Reserved for system bots.', false]);
    else if (existing?.is_active) skipped.push([email, 'Already has an account.', false]);
    else if (existing) skipped.push([email, 'Account has been deactivated.', true]);
  }
  if (invalid.length > 0) {
    throw invitationFailed("Some emails did not validate, so we didn't send any invitations.", [...invalid, ...skipped], false);
  }
  if (skipped.length === emails.length) throw invitationFailed("We weren't able to invite anyone.", skipped, false);

  const skippedEmails = new Set(skipped.map(([email]) => email));
  // Only administrators choose the welcome text; everyone else's invitations use the default.
  const welcomeText = referrer.role <= ROLE_ADMIN ? (input.welcomeMessageCustomText ?? null) : null;
  for (const email of emails.filter((e) => !skippedEmails.has(e))) {
    const invite: InviteRow = {
      id: await nextId(scope.db, 'invite'),
      email,
      email_key: email.toLowerCase(),
      invited_by: referrer.id,
      invite_as: input.inviteAs,
      stream_ids: [...new Set(input.streamIds)],
      group_ids: [...new Set(input.groupIds)],
      include_realm_default_subscriptions: input.includeRealmDefaultSubscriptions,
      notify_referrer_on_join: input.notifyReferrerOnJoin,
      welcome_message_custom_text: welcomeText,
      invited_at: scope.now,
      expires_at: input.expiresInMinutes === null ? null : scope.now + input.expiresInMinutes * 60,
      status: 'pending',
      accepted_user_id: null,
      confirmation_key: generateUrlKey(),
    };
    await scope.db.invites.add(invite);
    await recordInvitationMail(scope, directory, invite, referrer);
  }
  notifyInvitesChanged(scope, directory, referrer.id);
  return skipped;
}

/** Roles no more permissive than the caller's own (spec 4.9); upstream's messages. */
export function checkRoleBasedPermission(referrer: UserRow, inviteAs: Role): void {
  if (inviteAs >= referrer.role) return;
  throw badRequest(inviteAs === ROLE_OWNER ? 'Must be an organization owner' : 'Must be an organization administrator');
}

/**
 * Addresses separated by commas or newlines; `Name <address>` gives the address. Blank
 * entries are dropped, and repeats (ignoring case) keep their first spelling.
 */
function parseInviteeEmails(raw: string): string[] {
  const seen = new Set<string>();
  const emails: string[] = [];
  const entries = raw.split(/[,\n]/);
  // Each address is an invitation and a mail written: bounded as every list is.
  if (entries.length > MAX_LIST_LENGTH) throw badRequest(listTooLong('invitee_emails', MAX_LIST_LENGTH));
  for (const entry of entries) {
    const email = (/<(.*)>/.exec(entry)?.[1] ?? entry).trim();
    if (email === '' || seen.has(email.toLowerCase())) continue;
    seen.add(email.toLowerCase());
    emails.push(email);
  }
  return emails;
}

/** An address a mail could be delivered to: one `@`, a dotted domain, no spaces or brackets. */
const EMAIL_PATTERN = /^[^\s@<>()[\]\\,;:"]+@(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z]{2,}$/;
export const isValidEmail = (email: string): boolean => EMAIL_PATTERN.test(email);

/**
 * The channels and groups an invitation will join its invitee to, checked as upstream checks
 * them for email invitations and invitation links alike.
 */
export async function checkInviteTargets(scope: CallerScope, streamIds: number[], groupIds: number[]): Promise<void> {
  const { directory, caller } = scope;
  await checkChannels(scope.db, directory, caller, streamIds);
  for (const groupId of groupIds) {
    const group = accessUserGroup(directory, groupId);
    if (group.deactivated) throw badRequest('User group is deactivated.');
    if (!mayAddMembers(caller, group, directory)) throw badRequest('Insufficient permission');
  }
}

/**
 * Each channel must exist and be accessible to the caller ("Invalid channel ID"), and be a
 * default channel or one the caller may subscribe others to.
 */
async function checkChannels(db: RealmDatabase, directory: RealmDirectory, referrer: UserRow, streamIds: number[]): Promise<void> {
  const channels: ChannelRow[] = [];
  for (const id of streamIds) {
    const channel = directory.channels.get(id);
    const subscribed = channel !== undefined && (await db.subscriptions.get([referrer.id, id]))?.active === 1;
    if (!channel || channel.is_archived || !canReadChannel(referrer, channel, subscribed)) {
      throw badRequest(`Invalid channel ID ${id}. No invites were sent.`);
    }
    channels.push(channel);
  }
  const defaults = directory.realm.default_channel_ids;
  if (channels.some((c) => !defaults.includes(c.id) && !canAddSubscribers(referrer, c, directory))) {
    throw badRequest('You do not have permission to subscribe other users to channels.');
  }
}

/**
 * Where the invitee accepts: the sandbox route (README, "Sandbox routes"), with the invitation's
 * confirmation key, which only this mail carries (the id alone is a counter anyone can guess).
 */
const acceptPath = (invite: InviteRow): string =>
  `${API_PREFIX}/sandbox/invites/${invite.id}/accept?key=${invite.confirmation_key}`;

/** The invitation mail, recorded in outgoing_mail and never delivered. */
async function recordInvitationMail(
  scope: ActionScope,
  directory: RealmDirectory,
  invite: InviteRow,
  referrer: UserRow,
): Promise<void> {
  const { realm } = directory;
  const expiry =
    invite.expires_at === null ? 'It never expires.' : `It expires on ${new Date(invite.expires_at * 1000).toISOString()}.`;
  await scope.db.outgoing_mail.add({
    id: await nextId(scope.db, 'outgoing_mail'),
    to: invite.email,
    subject: `${referrer.full_name} invited you to join ${realm.name}`,
    body: [
      `${referrer.full_name} (${referrer.email}) invited you to join ${realm.name} (${realmUrl(realm)}).`,
      '',
      `To accept, POST your full_name and a password to ${realmUrl(realm)}${acceptPath(invite)}`,
      expiry,
    ].join('\n'),
    sent_at: scope.now,
    kind: 'invitation',
    invite_id: invite.id,
  });
}

/** `invites_changed` goes to administrators and to the invitation's referrer (upstream). */
export function notifyInvitesChanged(scope: ActionScope, directory: RealmDirectory, referrerId: number): void {
  const users = [...directory.users.values()]
    .filter((u) => u.is_active && !u.is_bot && (u.role <= ROLE_ADMIN || u.id === referrerId))
    .map((u) => u.id);
  scope.notify({ event: { type: 'invites_changed' }, users });
}

/** Pending and unexpired, as GET /invites lists them. */
const isOpenInvite = (invite: InviteRow, now: number): boolean => invite.status === 'pending' && !hasExpired(invite, now);

export const hasExpired = (invite: { expires_at: number | null }, now: number): boolean =>
  invite.expires_at !== null && invite.expires_at <= now;

/** The invitations the caller may manage: every one for administrators, else their own. */
export async function invitesControlledBy(scope: ReadScope): Promise<Record<string, unknown>[]> {
  const { caller: user, now } = scope;
  requireMemberOrAdmin(user);
  const invites = await scope.db.invites.orderBy('id').toArray();
  return invites
    .filter((invite) => isOpenInvite(invite, now) && (user.role <= ROLE_ADMIN || invite.invited_by === user.id))
    .map((invite) => ({
      id: invite.id,
      email: invite.email,
      invited_by_user_id: invite.invited_by,
      invited: invite.invited_at,
      expiry_date: invite.expires_at,
      invited_as: invite.invite_as,
      notify_referrer_on_join: invite.notify_referrer_on_join,
      is_multiuse: false,
    }));
}

/** An invitation the caller may revoke or resend: their own, or any for administrators. */
async function accessInvite(db: RealmDatabase, user: UserRow, inviteId: number): Promise<InviteRow> {
  requireMemberOrAdmin(user);
  const invite = await db.invites.get(inviteId);
  if (!invite || invite.status === 'accepted') throw badRequest('No such invitation');
  if (invite.invited_by !== user.id) {
    if (invite.invite_as === ROLE_OWNER && user.role !== ROLE_OWNER) throw badRequest('Must be an organization owner');
    if (user.role > ROLE_ADMIN) throw badRequest('Must be an organization administrator');
  }
  return invite;
}

/**
 * GET /sandbox/outgoing_mail (administrators): the recorded mail, oldest first. An invitation's
 * mail carries the key that accepts it, so it is shown only to who could have sent that
 * invitation: an administrator does not get the key to an owner's account.
 */
export async function outgoingMailFor(scope: ReadScope): Promise<Record<string, unknown>[]> {
  const { caller } = scope;
  const mail = await scope.db.outgoing_mail.orderBy('id').toArray();
  const inviteIds = mail.flatMap((m) => (m.invite_id === undefined ? [] : [m.invite_id]));
  const invites = new Map((await scope.db.invites.bulkGet(inviteIds)).flatMap((invite) => (invite ? [[invite.id, invite]] : [])));
  return mail
    .filter((m) => {
      const invite = m.invite_id === undefined ? undefined : invites.get(m.invite_id);
      return invite === undefined || invite.invite_as >= caller.role;
    })
    .map(({ invite_id: _inviteId, ...shown }) => shown);
}

/** DELETE /invites/{id}: the invitation can no longer be accepted. */
export async function revokeInvite(scope: CallerScope, inviteId: number): Promise<void> {
  const invite = await accessInvite(scope.db, scope.caller, inviteId);
  if (invite.status === 'revoked') throw badRequest('Invitation has already been revoked');
  await scope.db.invites.update(invite.id, { status: 'revoked' });
  notifyInvitesChanged(scope, scope.directory, invite.invited_by);
}

/** POST /invites/{id}/resend: the same invitation mailed again (recorded). */
export async function resendInvite(scope: CallerScope, inviteId: number): Promise<void> {
  const { directory, caller: user } = scope;
  const invite = await accessInvite(scope.db, user, inviteId);
  if (invite.status === 'revoked') throw badRequest('No such invitation');
  await recordInvitationMail(scope, directory, invite, directory.users.get(invite.invited_by) ?? user);
}
