import type { RealmDirectory } from '../directory/realm-directory.ts';
import type { RealmRow, UserRow } from '../storage/rows.ts';

/**
 * Whether `viewer` may see `target`'s real email under the realm's email_address_visibility
 * (1 everyone, 2 members, 3 administrators, 4 nobody, 5 moderators). Everyone sees their own,
 * and bots' addresses are always real (spec 2.2).
 */
export function canSeeRealEmail(realm: RealmRow, viewer: Pick<UserRow, 'id' | 'role'> | null, target: UserRow): boolean {
  if (target.is_bot) return true;
  if (viewer && viewer.id === target.id) return true;
  if (!viewer) return realm.email_address_visibility === 1;
  return viewerSeesAllEmails(realm, viewer);
}

/** Whether the realm setting lets this viewer see every human user's real email. */
function viewerSeesAllEmails(realm: RealmRow, viewer: Pick<UserRow, 'role'>): boolean {
  switch (realm.email_address_visibility) {
    case 1:
      return true;
    case 2:
      return viewer.role <= 400;
    case 3:
      return viewer.role <= 200;
    case 5:
      return viewer.role <= 300;
    default:
      return false;
  }
}

const dummyEmail = (realm: RealmRow, userId: number): string => `user${userId}@${realm.host}`;

/** The API email of `target` as `viewer` sees it. */
export function apiEmail(realm: RealmRow, viewer: Pick<UserRow, 'id' | 'role'> | null, target: UserRow): string {
  return canSeeRealEmail(realm, viewer, target) ? target.email : dummyEmail(realm, target.id);
}

/**
 * The user an email names for `viewer`: the dummy `user{id}@{host}` address names anyone, a
 * real address only a user whose real email the viewer may see, so a hidden address cannot be
 * confirmed by trying it (spec 2.2).
 */
export function userByVisibleEmail(directory: RealmDirectory, viewer: UserRow | null, email: string): UserRow | undefined {
  const user = directory.userByApiEmail(email);
  if (user && user.email_key === email.trim().toLowerCase() && !canSeeRealEmail(directory.realm, viewer, user)) return undefined;
  return user;
}
