import { addLinkifier, linkifiersToWire, removeLinkifier, reorderLinkifiers, updateLinkifier } from '../actions/linkifiers.ts';
import { readSnapshot, runAction } from '../actions/run-action.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { intList, pathId, str } from '../http/param-types.ts';
import { RealmDirectory } from '../lib/realm-directory.ts';

/** Realm linkifiers: anyone lists them; administrators add, edit, remove and reorder them. */
export const linkifierEndpoints = [
  defineEndpoint({
    method: 'GET',
    path: '/realm/linkifiers',
    params: {},
    async handler(ctx) {
      const directory = await readSnapshot(ctx.engine, (db) => RealmDirectory.load(db));
      return { linkifiers: linkifiersToWire(directory.linkifiers) };
    },
  }),

  defineEndpoint({
    method: 'PATCH',
    path: '/realm/linkifiers',
    params: { ordered_linkifier_ids: intList() },
    async handler(ctx, params) {
      await runAction(ctx.engine, (scope) => reorderLinkifiers(scope, ctx.user, params.ordered_linkifier_ids));
      return {};
    },
  }),

  defineEndpoint({
    method: 'POST',
    path: '/realm/filters',
    params: { pattern: str(), url_template: str() },
    async handler(ctx, params) {
      const input = { pattern: params.pattern, urlTemplate: params.url_template };
      const id = await runAction(ctx.engine, (scope) => addLinkifier(scope, ctx.user, input));
      return { id };
    },
  }),

  defineEndpoint({
    method: 'PATCH',
    path: '/realm/filters/{filter_id}',
    params: { filter_id: pathId(), pattern: str(), url_template: str() },
    async handler(ctx, params) {
      const input = { pattern: params.pattern, urlTemplate: params.url_template };
      await runAction(ctx.engine, (scope) => updateLinkifier(scope, ctx.user, params.filter_id, input));
      return {};
    },
  }),

  defineEndpoint({
    method: 'DELETE',
    path: '/realm/filters/{filter_id}',
    params: { filter_id: pathId() },
    async handler(ctx, params) {
      await runAction(ctx.engine, (scope) => removeLinkifier(scope, ctx.user, params.filter_id));
      return {};
    },
  }),
];
