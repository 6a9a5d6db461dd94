import { userGroupList } from '../wire/user-group-wire.ts';
import type { StateContext } from './state-context.ts';

/** `realm_user_groups`: deactivated groups only for clients that can show them. */
export function userGroupsSection(ctx: StateContext): Record<string, unknown> {
  return { realm_user_groups: userGroupList(ctx.directory, ctx.capabilities.include_deactivated_groups) };
}
