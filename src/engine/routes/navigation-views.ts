import { addNavigationView, navigationViewsOf, navigationViewToWire, removeNavigationView, updateNavigationView } from '../actions/navigation-views.ts';
import { readSnapshot, runAction } from '../actions/run-action.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { bool, str } from '../http/param-types.ts';

/** The caller's navigation views; `{fragment}` is the view's URL fragment, percent-encoded. */
export const navigationViewEndpoints = [
  defineEndpoint({
    method: 'GET',
    path: '/navigation_views',
    params: {},
    async handler(ctx) {
      const rows = await readSnapshot(ctx.engine, (db) => navigationViewsOf(db, ctx.user.id));
      return { navigation_views: rows.map(navigationViewToWire) };
    },
  }),

  defineEndpoint({
    method: 'POST',
    path: '/navigation_views',
    params: { fragment: str(), is_pinned: bool(), name: str().optional() },
    async handler(ctx, params) {
      const input = { fragment: params.fragment, isPinned: params.is_pinned, name: params.name };
      await runAction(ctx.engine, (scope) => addNavigationView(scope, ctx.user, input));
      return {};
    },
  }),

  defineEndpoint({
    method: 'PATCH',
    path: '/navigation_views/{fragment}',
    params: { fragment: str(), is_pinned: bool().optional(), name: str().optional() },
    async handler(ctx, params) {
      const input = { fragment: params.fragment, isPinned: params.is_pinned, name: params.name };
      await runAction(ctx.engine, (scope) => updateNavigationView(scope, ctx.user, input));
      return {};
    },
  }),

  defineEndpoint({
    method: 'DELETE',
    path: '/navigation_views/{fragment}',
    params: { fragment: str() },
    async handler(ctx, params) {
      await runAction(ctx.engine, (scope) => removeNavigationView(scope, ctx.user, params.fragment));
      return {};
    },
  }),
];
