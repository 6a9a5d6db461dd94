import { badRequest, unauthorizedPrincipal } from '../errors/api-error.ts';
import { ROLE_ADMIN, ROLE_OWNER, type UserRow } from '../storage/rows.ts';

/**
 * Who may call an endpoint at all, before any rule about the thing it touches: any
 * authenticated user, humans only (upstream's `human_users_only`), organization administrators
 * (owners included) or owners.
 */
export type CallerKind = 'user' | 'human' | 'admin' | 'owner';

export function requireHuman(user: UserRow): void {
  if (user.is_bot) throw badRequest('This endpoint does not accept bot requests.');
}

function requireAdmin(user: UserRow): void {
  if (user.role > ROLE_ADMIN) throw unauthorizedPrincipal('Must be an organization administrator');
}

export function requireOwner(user: UserRow): void {
  if (user.role !== ROLE_OWNER) throw unauthorizedPrincipal('Must be an organization owner');
}

export function requireCallerKind(user: UserRow, kind: CallerKind): void {
  if (kind === 'human') requireHuman(user);
  else if (kind === 'admin') requireAdmin(user);
  else if (kind === 'owner') requireOwner(user);
}
