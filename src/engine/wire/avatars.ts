import { API_PREFIX } from './paths.ts';
import type { UserRow } from '../storage/rows.ts';

/**
 * Avatars are served by the engine itself (an SVG with the user's initials), so they work
 * offline in every host. They are never external gravatars, so `client_gravatar` never
 * turns them into null.
 */
export const avatarUrl = (user: Pick<UserRow, 'id' | 'avatar_version'>): string =>
  `${API_PREFIX}/avatar/${user.id}?v=${user.avatar_version}`;
