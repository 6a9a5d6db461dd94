import { avatarOwner } from '../actions/avatar-access.ts';
import { defineEndpoint, type Endpoint } from '../http/endpoint.ts';
import { pathId, str } from '../http/param-types.ts';
import { escapeAttribute, escapeCode } from '../markdown/html-escape.ts';
import type { UserRow } from '../storage/rows.ts';

/** Background colours, picked by user id so that a user keeps theirs. */
const AVATAR_COLORS = ['#e57373', '#f06292', '#ba68c8', '#7986cb', '#4fc3f7', '#4db6ac', '#81c784', '#dce775', '#ffb74d', '#a1887f'];

/** Up to two letters: the first of the first and of the last word of the name. */
function initials(fullName: string): string {
  const words = fullName.trim().split(/\s+/u).filter(Boolean);
  if (words.length === 0) return '?';
  const first = [...words[0]][0];
  const last = words.length > 1 ? [...words[words.length - 1]][0] : '';
  return (first + last).toUpperCase();
}

/** A square SVG with the user's initials on a colour taken from their id. */
function avatarSvg(user: Pick<UserRow, 'id' | 'full_name'>, size: number): string {
  const color = AVATAR_COLORS[user.id % AVATAR_COLORS.length];
  const label = escapeAttribute(user.full_name);
  const text = escapeCode(initials(user.full_name));
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 100 100" role="img" aria-label="${label}">` +
    `<rect width="100" height="100" fill="${color}"/>` +
    `<text x="50" y="50" dy="0.35em" text-anchor="middle" font-family="sans-serif" font-size="42" fill="#ffffff">${text}</text>` +
    `</svg>`
  );
}

/** GET /avatar/{user_id}[/medium], as upstream's; who may have it is actions/avatar-access.ts. */
function avatarEndpoint(path: string, size: number): Endpoint {
  return defineEndpoint({
    method: 'GET',
    path,
    auth: 'optional',
    // `v` is the cache-busting avatar version clients append; `k` the avatar key.
    params: { user_id: pathId(), v: str().optional(), k: str().optional() },
    async read({ directory, caller }, params) {
      const user = avatarOwner(directory, caller, params.user_id, params.k);
      return new Response(avatarSvg(user, size), {
        headers: { 'Content-Type': 'image/svg+xml', 'Cache-Control': 'no-cache' },
      });
    },
  });
}

export const avatarEndpoints = [avatarEndpoint('/avatar/{user_id}', 100), avatarEndpoint('/avatar/{user_id}/medium', 500)];
