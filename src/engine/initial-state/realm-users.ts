import { avatarUrl, avatarUrlMedium } from '../wire/avatars.ts';
import { isInGroupSetting } from '../permissions/system-groups.ts';
import { loadProfileData, userToWire } from '../wire/user-wire.ts';
import { ROLE_MODERATOR, type UserRow } from '../storage/rows.ts';
import { type RealmPermission, realmPermissionGroup } from '../permissions/realm-permissions.ts';
import type { StateContext } from './state-context.ts';
import { administeredBots, botToWire } from '../wire/bot-wire.ts';

/**
 * `realm_user` section: the realm's users (active ones, deactivated ones, and the built-in
 * system bots apart), and the caller's own identity and permissions.
 */
export async function realmUserSection(ctx: StateContext): Promise<Record<string, unknown>> {
  const { directory, user } = ctx;
  const profileData = await loadProfileData(ctx.db);
  const format = (target: UserRow) =>
    userToWire(target, directory.realm, {
      viewer: user,
      includeProfileData: true,
      profileData,
      avatarUrlOptional: ctx.capabilities.user_avatar_url_field_optional,
    });
  const everyone = [...directory.users.values()].sort((a, b) => a.id - b.id);
  const section: Record<string, unknown> = {
    realm_users: everyone.filter((u) => u.is_active && !u.is_system_bot).map(format),
    realm_non_active_users: everyone.filter((u) => !u.is_active && !u.is_system_bot).map(format),
    cross_realm_bots: everyone.filter((u) => u.is_system_bot).map(format),
  };
  if (user) Object.assign(section, ownIdentity(ctx, user));
  return section;
}

/** `realm_bot` section: the bots the caller may administer (none for a spectator). */
export function realmBotsSection(ctx: StateContext): Record<string, unknown> {
  return { realm_bots: ctx.user ? administeredBots(ctx.directory, ctx.user).map(botToWire) : [] };
}

function ownIdentity(ctx: StateContext, user: UserRow): Record<string, unknown> {
  const { groups } = ctx.directory;
  const allowed = (setting: RealmPermission) => isInGroupSetting(user, realmPermissionGroup(ctx.directory.realm, setting), groups);
  const own = userToWire(user, ctx.directory.realm, { viewer: user, includeProfileData: false, avatarUrlOptional: false });
  return {
    user_id: user.id,
    email: own.email,
    delivery_email: own.delivery_email,
    full_name: user.full_name,
    avatar_source: 'U',
    avatar_url: avatarUrl(user),
    avatar_url_medium: avatarUrlMedium(user),
    is_owner: own.is_owner,
    is_admin: own.is_admin,
    is_moderator: user.role === ROLE_MODERATOR,
    is_guest: own.is_guest,
    is_billing_admin: false,
    can_create_streams: allowed('can_create_public_channel_group') || allowed('can_create_private_channel_group'),
    can_create_public_streams: allowed('can_create_public_channel_group'),
    can_create_private_streams: allowed('can_create_private_channel_group'),
    can_create_web_public_streams: allowed('can_create_web_public_channel_group'),
    can_subscribe_other_users: allowed('can_add_subscribers_group'),
    can_invite_others_to_realm: allowed('can_invite_users_group'),
  };
}
