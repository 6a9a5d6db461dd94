import { memoised, peekMemo } from '../directory/realm-directory.ts';
import type { RealmDatabase } from '../storage/database.ts';
import { ROLE_ADMIN, ROLE_GUEST, ROLE_OWNER, type ProfileValueRow, type RealmRow, type UserRow } from '../storage/rows.ts';
import { avatarUrl } from './avatars.ts';
import { apiEmail, canSeeRealEmail } from '../permissions/email-visibility.ts';

export interface UserWireOptions {
  /** Who is looking (null: a spectator); decides which emails are real. */
  viewer: Pick<UserRow, 'id' | 'role'> | null;
  /** Whether `profile_data` is wanted (never sent for bots). */
  includeProfileData: boolean;
  /** Every user's custom profile field values (`loadProfileData`); absent: none are set. */
  profileData?: ProfileDataIndex;
  /** The client declared `user_avatar_url_field_optional` and can fetch GET /avatar/{id} itself. */
  avatarUrlOptional: boolean;
}

/**
 * The user object of the API (spec 2.2). `client_gravatar` never changes it: our avatars are
 * served by this server, never external gravatars, so `avatar_url` is never null.
 */
export function userToWire(user: UserRow, realm: RealmRow, options: UserWireOptions): Record<string, unknown> {
  const { viewer } = options;
  const wire: Record<string, unknown> = {
    user_id: user.id,
    delivery_email: canSeeRealEmail(realm, viewer, user) ? user.email : null,
    email: apiEmail(realm, viewer, user),
    full_name: user.full_name,
    date_joined: dateJoined(user.date_joined, viewer !== null),
    is_active: user.is_active,
    is_owner: user.role === ROLE_OWNER,
    is_admin: user.role <= ROLE_ADMIN,
    is_guest: user.role === ROLE_GUEST,
    is_billing_admin: false,
    is_bot: user.is_bot,
    bot_type: user.is_bot ? user.bot_type : null,
    role: user.role,
    timezone: user.timezone,
    avatar_version: user.avatar_version,
  };
  // Upstream leaves avatar_url out for long-idle users of such clients; our nearest
  // equivalent of a long-idle user is a deactivated one.
  if (!(options.avatarUrlOptional && !user.is_active)) wire.avatar_url = avatarUrl(user);
  if (user.is_bot) {
    wire.bot_owner_id = user.bot_owner_id;
    if (user.is_system_bot) wire.is_system_bot = true;
  } else if (options.includeProfileData) {
    wire.profile_data = options.profileData?.get(user.id) ?? {};
  }
  if (viewer === null) {
    // As upstream: spectators get no personal details beyond the day the user joined.
    delete wire.is_billing_admin;
    delete wire.timezone;
  }
  return wire;
}

/** `profile_data` objects by user id: `{field id: {value, rendered_value?}}` (spec 2.2). */
export type ProfileDataIndex = ReadonlyMap<number, Readonly<Record<string, Readonly<ProfileDataValue>>>>;
export type ProfileDataValue = { value: string; rendered_value?: string };

/** The `profile_data` entry of one stored value: `rendered_value` only for Markdown fields. */
export function profileDataValue(row: Pick<ProfileValueRow, 'value' | 'rendered_value'>): ProfileDataValue {
  return row.rendered_value === undefined ? { value: row.value } : { value: row.value, rendered_value: row.rendered_value };
}

const PROFILE_DATA_MEMO = 'profile-data';

/** `loadProfileData`'s answer if it is kept and current, without a read; else undefined. */
export const keptProfileData = (db: RealmDatabase): ProfileDataIndex | undefined => peekMemo(db, PROFILE_DATA_MEMO);

/**
 * Every stored custom profile field value, grouped by user (one row per user and field: a small
 * table). Kept beside the cached directory until the table is written (`memoised`), so
 * `GET /users/me` reads no profile row; frozen, since every caller shares it.
 */
export function loadProfileData(db: RealmDatabase): Promise<ProfileDataIndex> {
  return memoised(db, PROFILE_DATA_MEMO, async () => {
    const index = new Map<number, Record<string, Readonly<ProfileDataValue>>>();
    for (const row of await db.profile_values.toArray()) {
      let values = index.get(row.user_id);
      if (!values) index.set(row.user_id, (values = {}));
      values[String(row.field_id)] = Object.freeze(profileDataValue(row));
    }
    for (const values of index.values()) Object.freeze(values);
    return index;
  });
}

/** Join times already formatted: every user object carries one, and a user list repeats them all. */
const joinedIso = new Map<number, string>();
const MAX_KEPT_JOIN_TIMES = 100_000;

/** Upstream's format: ISO 8601 to the minute for members, the bare date for spectators. */
function dateJoined(seconds: number, forMember: boolean): string {
  let iso = joinedIso.get(seconds);
  if (iso === undefined) {
    if (joinedIso.size >= MAX_KEPT_JOIN_TIMES) joinedIso.clear();
    iso = new Date(seconds * 1000).toISOString();
    joinedIso.set(seconds, iso);
  }
  return forMember ? `${iso.slice(0, 16)}+00:00` : iso.slice(0, 10);
}
