import { readSnapshot, runAction } from '../actions/run-action.ts';
import { createSavedSnippet, deleteSavedSnippet, editSavedSnippet, savedSnippetsOf, savedSnippetToWire } from '../actions/saved-snippets.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { pathId, str } from '../http/param-types.ts';

/** The caller's saved snippets. */
export const savedSnippetEndpoints = [
  defineEndpoint({
    method: 'GET',
    path: '/saved_snippets',
    params: {},
    async handler(ctx) {
      const rows = await readSnapshot(ctx.engine, (db) => savedSnippetsOf(db, ctx.user.id));
      return { saved_snippets: rows.map(savedSnippetToWire) };
    },
  }),

  defineEndpoint({
    method: 'POST',
    path: '/saved_snippets',
    params: { title: str(), content: str() },
    async handler(ctx, params) {
      const id = await runAction(ctx.engine, (scope) => createSavedSnippet(scope, ctx.user, params.title, params.content));
      return { saved_snippet_id: id };
    },
  }),

  defineEndpoint({
    method: 'PATCH',
    path: '/saved_snippets/{saved_snippet_id}',
    params: { saved_snippet_id: pathId(), title: str().optional(), content: str().optional() },
    async handler(ctx, params) {
      const change = { title: params.title, content: params.content };
      await runAction(ctx.engine, (scope) => editSavedSnippet(scope, ctx.user, params.saved_snippet_id, change));
      return {};
    },
  }),

  defineEndpoint({
    method: 'DELETE',
    path: '/saved_snippets/{saved_snippet_id}',
    params: { saved_snippet_id: pathId() },
    async handler(ctx, params) {
      await runAction(ctx.engine, (scope) => deleteSavedSnippet(scope, ctx.user, params.saved_snippet_id));
      return {};
    },
  }),
];
