import { addLinkifier, removeLinkifier, reorderLinkifiers, updateLinkifier } from '../actions/linkifiers.ts';
import { linkifiersToWire } from '../wire/linkifier-wire.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { intList, pathId, str } from '../http/param-types.ts';

/**
 * Upstream stores patterns and templates unbounded; every message and topic runs each pattern,
 * so this server takes at most 1000 characters of each (a 1 MB pattern took 6 s to compile).
 */
const MAX_LINKIFIER_TEXT_LENGTH = 1000;
const linkifierText = () => str().max(MAX_LINKIFIER_TEXT_LENGTH);

/** Realm linkifiers: anyone lists them; administrators add, edit, remove and reorder them. */
export const linkifierEndpoints = [
  defineEndpoint({
    method: 'GET',
    path: '/realm/linkifiers',
    params: {},
    async read(scope) {
      return { linkifiers: linkifiersToWire(scope.directory.linkifiers) };
    },
  }),

  defineEndpoint({
    method: 'PATCH',
    path: '/realm/linkifiers',
    auth: 'admin',
    params: { ordered_linkifier_ids: intList() },
    async write(scope, params) {
      await reorderLinkifiers(scope, params.ordered_linkifier_ids);
      return {};
    },
  }),

  defineEndpoint({
    method: 'POST',
    path: '/realm/filters',
    auth: 'admin',
    params: { pattern: linkifierText(), url_template: linkifierText() },
    async write(scope, params) {
      return { id: await addLinkifier(scope, { pattern: params.pattern, urlTemplate: params.url_template }) };
    },
  }),

  defineEndpoint({
    method: 'PATCH',
    path: '/realm/filters/{filter_id}',
    auth: 'admin',
    params: { filter_id: pathId(), pattern: linkifierText(), url_template: linkifierText() },
    async write(scope, params) {
      await updateLinkifier(scope, { id: params.filter_id, pattern: params.pattern, urlTemplate: params.url_template });
      return {};
    },
  }),

  defineEndpoint({
    method: 'DELETE',
    path: '/realm/filters/{filter_id}',
    auth: 'admin',
    params: { filter_id: pathId() },
    async write(scope, params) {
      await removeLinkifier(scope, params.filter_id);
      return {};
    },
  }),
];
