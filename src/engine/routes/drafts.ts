import { z } from 'zod';
import { checkDraftsSynchronized, createDrafts, deleteDraft, editDraft } from '../actions/drafts.ts';
import { draftsOf, draftToWire } from '../wire/draft-wire.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { intValue, json, listOf, pathId, stringValue, VAR } from '../http/param-types.ts';

/** Upstream stores a draft's time as a date, which ends with the year 9999. */
const LAST_TIMESTAMP = 253402300799;

/** One draft as upstream's `DraftData`: exactly these keys, `timestamp` optional. */
const draftObject = z.strictObject({
  type: z.enum(['', 'stream', 'private'], { error: `Invalid ${VAR}` }),
  to: listOf(intValue()),
  topic: stringValue(),
  content: stringValue().refine((s) => s.trim() !== '', { error: `${VAR} cannot be blank` }),
  timestamp: z.number().max(LAST_TIMESTAMP).optional(),
});

/** The caller's drafts (upstream's `/drafts`), refused while the caller does not sync them. */
export const draftEndpoints = [
  defineEndpoint({
    method: 'GET',
    path: '/drafts',
    params: {},
    async read(scope) {
      checkDraftsSynchronized(scope);
      const drafts = (await draftsOf(scope.db, scope.caller.id)).map(draftToWire);
      return { count: drafts.length, drafts };
    },
  }),

  defineEndpoint({
    method: 'POST',
    path: '/drafts',
    params: { drafts: json(listOf(draftObject)) },
    async write(scope, params) {
      return { ids: await createDrafts(scope, params.drafts) };
    },
  }),

  defineEndpoint({
    method: 'PATCH',
    path: '/drafts/{draft_id}',
    params: { draft_id: pathId(), draft: json(draftObject) },
    async write(scope, params) {
      await editDraft(scope, params.draft_id, params.draft);
      return {};
    },
  }),

  defineEndpoint({
    method: 'DELETE',
    path: '/drafts/{draft_id}',
    params: { draft_id: pathId() },
    async write(scope, params) {
      await deleteDraft(scope, params.draft_id);
      return {};
    },
  }),
];
