import { addNavigationView, removeNavigationView, updateNavigationView } from '../actions/navigation-views.ts';
import { navigationViewsOf, navigationViewToWire } from '../wire/navigation-view-wire.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { bool, str } from '../http/param-types.ts';

/**
 * The caller's navigation views; `{fragment*}` is the view's URL fragment, percent-encoded or
 * not (`/navigation_views/narrow/is/alerted`, as upstream's clients call it).
 */
export const navigationViewEndpoints = [
  defineEndpoint({
    method: 'GET',
    path: '/navigation_views',
    params: {},
    async read(scope) {
      const rows = await navigationViewsOf(scope.db, scope.caller.id);
      return { navigation_views: rows.map(navigationViewToWire) };
    },
  }),

  defineEndpoint({
    method: 'POST',
    path: '/navigation_views',
    params: { fragment: str(), is_pinned: bool(), name: str().optional() },
    async write(scope, params) {
      await addNavigationView(scope, { fragment: params.fragment, isPinned: params.is_pinned, name: params.name });
      return {};
    },
  }),

  defineEndpoint({
    method: 'PATCH',
    path: '/navigation_views/{fragment*}',
    params: { fragment: str(), is_pinned: bool().optional(), name: str().optional() },
    async write(scope, params) {
      await updateNavigationView(scope, { fragment: params.fragment, isPinned: params.is_pinned, name: params.name });
      return {};
    },
  }),

  defineEndpoint({
    method: 'DELETE',
    path: '/navigation_views/{fragment*}',
    params: { fragment: str() },
    async write(scope, params) {
      await removeNavigationView(scope, params.fragment);
      return {};
    },
  }),
];
