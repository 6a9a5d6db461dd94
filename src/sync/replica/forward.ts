import { authenticate } from '../../engine/auth/basic-auth.ts';
import { RealmDirectory } from '../../engine/directory/realm-directory.ts';
import { ApiError } from '../../engine/errors/api-error.ts';
import { jsonResponse } from '../../engine/http/json-response.ts';
import type { RealmDatabase } from '../../engine/storage/database.ts';
import { type SyncedRequest, withFinalIds } from '../mutations.ts';
import { HUB_UNREACHABLE, type MutationResult, type PushedMutation } from '../protocol.ts';
import { ackedIds } from './acked-ids.ts';

/**
 * A forwarded write goes to the hub with the replica's own credentials, so only the replica's
 * own user may make one: the request is authenticated here first, as the API would.
 */
export async function checkOwnCaller(db: RealmDatabase, request: Request, apiKey: string): Promise<void> {
  const caller = authenticate(await RealmDirectory.load(db), request.headers.get('authorization'));
  if (caller.api_key !== apiKey) throw new ApiError("Only this replica's own user can reach its hub", { code: 'UNAUTHORIZED', status: 403 });
}

/**
 * The forwarded write as the next mutation: numbered after every change queued so far (so a
 * push offers it after them), naming acknowledged sends by the hub's ids as queued changes do.
 */
export function numberedMutation(db: RealmDatabase, request: SyncedRequest): Promise<PushedMutation> {
  return db.transaction('rw', db.sync_replica, db.sync_outbox, async () => {
    const state = await db.sync_replica.get(1);
    if (!state) throw new ApiError('This replica has not reached its hub yet', { code: 'SYNC_NOT_READY', status: 503 });
    await db.sync_replica.put({ ...state, next_mutation_id: state.next_mutation_id + 1 });
    const acked = await ackedIds(db);
    const named = withFinalIds(request, (id) => acked.get(id) ?? id) ?? request;
    return { mutation_id: state.next_mutation_id, method: named.method as PushedMutation['method'], path: named.path, params: named.params };
  });
}

/** The hub's answer to its client, as the hub's API gave it: the status and the JSON fields. */
export function forwardedAnswer(result: MutationResult): Response {
  if (result.outcome === 'applied') return jsonResponse({ result: 'success', msg: '', ...result.answer });
  return jsonResponse({ result: 'error', ...result.error }, result.status);
}

/**
 * The hub could not be reached, or none of its answers arrived. 503: the request is fine, the
 * service it needs is unavailable, and a client may try again later (a 4xx would tell it its
 * request was wrong). The browser's first login answers the same (`replica-host.ts`).
 */
export const hubUnreachableAnswer = (hubUrl: string): Response =>
  jsonResponse({ result: 'error', msg: `This action needs the hub (${hubUrl}), which cannot be reached right now`, code: HUB_UNREACHABLE }, 503);
