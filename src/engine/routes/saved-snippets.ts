import { createSavedSnippet, deleteSavedSnippet, editSavedSnippet } from '../actions/saved-snippets.ts';
import { savedSnippetsOf, savedSnippetToWire } from '../wire/saved-snippet-wire.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { pathId, str } from '../http/param-types.ts';

/** The caller's saved snippets. */
export const savedSnippetEndpoints = [
  defineEndpoint({
    method: 'GET',
    path: '/saved_snippets',
    params: {},
    async read(scope) {
      const rows = await savedSnippetsOf(scope.db, scope.caller.id);
      return { saved_snippets: rows.map(savedSnippetToWire) };
    },
  }),

  defineEndpoint({
    method: 'POST',
    path: '/saved_snippets',
    params: { title: str(), content: str() },
    async write(scope, params) {
      return { saved_snippet_id: await createSavedSnippet(scope, params) };
    },
  }),

  defineEndpoint({
    method: 'PATCH',
    path: '/saved_snippets/{saved_snippet_id}',
    params: { saved_snippet_id: pathId(), title: str().optional(), content: str().optional() },
    async write(scope, params) {
      await editSavedSnippet(scope, { id: params.saved_snippet_id, title: params.title, content: params.content });
      return {};
    },
  }),

  defineEndpoint({
    method: 'DELETE',
    path: '/saved_snippets/{saved_snippet_id}',
    params: { saved_snippet_id: pathId() },
    async write(scope, params) {
      await deleteSavedSnippet(scope, params.saved_snippet_id);
      return {};
    },
  }),
];
