import { API_PREFIX } from './paths.ts';
import type { UserRow } from '../storage/rows.ts';

/**
 * Avatars are served by the engine itself (an SVG with the user's initials), so they work
 * offline in every host. They are never external gravatars, so `client_gravatar` never
 * turns them into null. GET /avatar/{id} needs authentication, as upstream's; the URLs clients
 * get carry the user's avatar key instead, as upstream's carry an unguessable hash, so an
 * `<img>` loads them without credentials.
 */
export const avatarUrl = (user: AvatarFields): string => `${API_PREFIX}/avatar/${user.id}?${avatarQuery(user)}`;

/** The medium-size avatar address (register's `avatar_url_medium`). */
export const avatarUrlMedium = (user: AvatarFields): string => `${API_PREFIX}/avatar/${user.id}/medium?${avatarQuery(user)}`;

type AvatarFields = Pick<UserRow, 'id' | 'avatar_version' | 'avatar_key'>;

const avatarQuery = (user: AvatarFields): string =>
  `v=${user.avatar_version}${user.avatar_key === undefined ? '' : `&k=${user.avatar_key}`}`;
