/**
 * A user's navigation views (left sidebar): settings for built-in views and the user's own
 * custom views, each named by its URL fragment. Events go to the user's own queues only.
 */
import { ApiError, badRequest } from '../errors/api-error.ts';
import type { NavigationViewRow } from '../storage/rows.ts';
import type { CallerScope } from '../services/action-scope.ts';
import { navigationViewsOf, navigationViewToWire } from '../wire/navigation-view-wire.ts';

/** Views the clients already know: they take settings but never a name of their own. */
const BUILT_IN_FRAGMENTS: ReadonlySet<string> = new Set([
  'inbox',
  'recent',
  'feed',
  'drafts',
  'narrow/has/reaction/sender/me',
  'narrow/is/mentioned',
  'narrow/is/starred',
]);

export interface NavigationViewInput {
  fragment: string;
  isPinned?: boolean;
  /** undefined: not given (a built-in view, or no change). */
  name?: string;
}

const alreadyExists = () => badRequest('Navigation view already exists.');
const doesNotExist = () => new ApiError('Navigation view does not exist.', { status: 404 });

export async function addNavigationView(scope: CallerScope, input: NavigationViewInput & { isPinned: boolean }): Promise<void> {
  const actor = scope.caller;
  const fragment = required(input.fragment, 'fragment');
  const name = input.name === undefined ? null : required(input.name, 'name');
  if (BUILT_IN_FRAGMENTS.has(fragment)) {
    if (name !== null) throw badRequest('Built-in views cannot have a custom name.');
  } else if (name === null) {
    throw badRequest('Custom views must have a valid name.');
  }
  const own = await navigationViewsOf(scope.db, actor.id);
  if (own.some((v) => v.fragment === fragment || (name !== null && v.name === name))) throw alreadyExists();

  const row: NavigationViewRow = { user_id: actor.id, fragment, is_pinned: input.isPinned, name };
  await scope.db.navigation_views.add(row);
  scope.notify({ event: { type: 'navigation_view', op: 'add', navigation_view: navigationViewToWire(row) }, users: [actor.id] });
}

/** Changes what is given; as upstream, an update naming nothing still answers with an (empty) update event. */
export async function updateNavigationView(scope: CallerScope, input: NavigationViewInput): Promise<void> {
  const actor = scope.caller;
  const fragment = required(input.fragment, 'fragment');
  const name = input.name === undefined ? undefined : required(input.name, 'name');
  if (BUILT_IN_FRAGMENTS.has(fragment) && name !== undefined) throw badRequest('Built-in views cannot have a custom name.');
  const own = await navigationViewsOf(scope.db, actor.id);
  if (name !== undefined && own.some((v) => v.name === name)) throw alreadyExists();
  const row = own.find((v) => v.fragment === fragment);
  if (!row) throw doesNotExist();

  const data: { name?: string; is_pinned?: boolean } = {};
  if (name !== undefined) data.name = name;
  if (input.isPinned !== undefined) data.is_pinned = input.isPinned;
  await scope.db.navigation_views.put({ ...row, ...data });
  scope.notify({ event: { type: 'navigation_view', op: 'update', fragment, data }, users: [actor.id] });
}

export async function removeNavigationView(scope: CallerScope, rawFragment: string): Promise<void> {
  const actor = scope.caller;
  const fragment = required(rawFragment, 'fragment');
  if (!(await scope.db.navigation_views.get([actor.id, fragment]))) throw doesNotExist();
  await scope.db.navigation_views.delete([actor.id, fragment]);
  scope.notify({ event: { type: 'navigation_view', op: 'remove', fragment }, users: [actor.id] });
}

/** Upstream strips these strings and refuses what is left empty. */
function required(value: string, name: string): string {
  const stripped = value.trim();
  if (stripped === '') throw badRequest(`${name} cannot be blank`);
  return stripped;
}
