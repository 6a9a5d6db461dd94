import { RealmDirectory } from '../../engine/directory/realm-directory.ts';
import { API_PREFIX, type Engine, type HandleOptions } from '../../engine/engine.ts';
import { ApiError } from '../../engine/errors/api-error.ts';
import { HUB_ONLY_WRITE } from '../../engine/storage/replica-database.ts';
import { jsonResponse } from '../../engine/http/json-response.ts';
import type { ActionScope } from '../../engine/services/action-scope.ts';
import type { SyncOutboxRow } from '../../engine/storage/rows.ts';
import { forwardedRequest, LOCAL_PARAMS, subscribedChannelNames, type SyncedRequest, syncedRequest } from '../mutations.ts';
import { readBoundedBody } from '../../engine/http/bounded-body.ts';
import { isProvisionalId, MAX_MUTATION_BYTES, MAX_REFRESH_IDS, UNSUPPORTED_ACTION } from '../protocol.ts';
import { touchedMessageIds } from '../touched-messages.ts';
import { ackedIds, withAckedIds } from './acked-ids.ts';

/**
 * Writes that concern only this replica's own clients: never pushed. Typing notices and presence
 * reports among them: ephemeral, they have no place in the outbox; `ephemeral-relay.ts` sends them
 * on to the hub besides.
 */
const LOCAL_ONLY = new Set(['POST /register', 'DELETE /events', 'POST /fetch_api_key', 'POST /typing', 'POST /users/me/presence', 'POST /messages/render']);
const isLocalOnly = (method: string, path: string): boolean =>
  LOCAL_ONLY.has(`${method} ${path}`) || (method === 'POST' && /^\/messages\/\d{1,16}\/typing$/.test(path));
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A request answered here, or a write only the hub can do, to be forwarded to it. */
export type LocalOutcome = { response: Response } | { forward: SyncedRequest };

/**
 * A request of the replica's user: reads and local-only writes go to the local engine; a synced
 * write runs there too, and its outbox row is written in the action's own transaction (replica
 * rule 1). Any other write of a known route is the hub's to do (a channel created by subscribing
 * to a new name included: only the hub gives ids), never done locally; any other request with a
 * file is refused (an upload, `POST /user_uploads`, is `SyncReplica`'s to send to the hub).
 */
export async function handleLocally(engine: Engine, request: Request, options: Pick<HandleOptions, 'writesJsonItself'> = {}): Promise<LocalOutcome> {
  const url = new URL(request.url);
  if (!url.pathname.startsWith(`${API_PREFIX}/`) || READS.has(request.method)) return { response: await engine.handle(request, options) };
  const path = url.pathname.slice(API_PREFIX.length);
  // An unknown path or method gets the API's own 404 or 405 here, without a trip to the hub.
  if (isLocalOnly(request.method, path) || engine.router.match(request.method, path).kind !== 'found') {
    return { response: await engine.handle(request, options) };
  }
  const params = await readParams(request, url);
  if (typeof params === 'string') return { response: unsupported(params) };
  const synced = syncedRequest(request.method, path, params);
  if (typeof synced === 'string') return forwarded(request.method, path, params);
  const directory = await RealmDirectory.load(engine.db);
  if (subscribedChannelNames(synced)?.some((name) => !directory.channelByName(name))) return forwarded(request.method, path, params);
  const response = await engine.handle(localRun(request, synced), { ...options, inTransaction: (scope, answer) => queueMutation(scope, synced, answer) });
  // The run met a write only the hub may do (a channel a page renamed since the choice above, a move in a channel no longer held): rolled back, it goes to the hub.
  return (await isHubOnlyWrite(response)) ? forwarded(request.method, path, params) : { response };
}

async function isHubOnlyWrite(response: Response): Promise<boolean> {
  if (response.status !== 409) return false;
  const body = (await response.clone().json().catch(() => null)) as { code?: unknown } | null;
  return body?.code === HUB_ONLY_WRITE;
}

function forwarded(method: string, path: string, params: Record<string, string>): LocalOutcome {
  const request = forwardedRequest(method, path, withoutLocalParams(params));
  return typeof request === 'string' ? { response: unsupported(request) } : { forward: request };
}

const withoutLocalParams = (params: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(params).filter(([name]) => !LOCAL_PARAMS.has(name)));

/** The request as the replica runs it: with the route's local parameters, if it has any (the outbox keeps the user's). */
function localRun(request: Request, synced: SyncedRequest): Request {
  const localParams = synced.route.localParams;
  if (!localParams) return request;
  const headers = new Headers(request.headers);
  headers.set('Content-Type', 'application/x-www-form-urlencoded');
  headers.delete('Content-Length');
  const url = new URL(request.url);
  url.search = '';
  return new Request(url, { method: request.method, headers, body: new URLSearchParams({ ...synced.params, ...localParams }) });
}

const unsupported = (msg: string): Response => jsonResponse({ result: 'error', msg, code: UNSUPPORTED_ACTION }, 400);

async function queueMutation(scope: ActionScope, request: SyncedRequest, answer: Record<string, unknown> | Response): Promise<void> {
  const { db } = scope;
  const state = await db.sync_replica.get(1);
  if (!state) throw new ApiError('This replica has not reached its hub yet', { code: 'SYNC_NOT_READY', status: 503 });
  await db.sync_replica.put({ ...state, next_mutation_id: state.next_mutation_id + 1 });
  const row: SyncOutboxRow = {
    mutation_id: state.next_mutation_id,
    method: request.method,
    path: request.path,
    params: withoutLocalParams(request.params),
    state: 'pending',
  };
  const touched = [...new Set(scope.queued.flatMap(touchedMessageIds))].filter((id) => !isProvisionalId(id));
  if (touched.length > 0 && touched.length <= MAX_REFRESH_IDS) row.touched_ids = touched;
  if (request.route.kind === 'send' && !(answer instanceof Response) && typeof answer.id === 'number') {
    row.provisional_id = answer.id;
    if (request.params.queue_id !== undefined) row.queue_id = request.params.queue_id;
    if (request.params.local_id !== undefined) row.local_id = request.params.local_id;
  }
  await db.sync_outbox.add(withAckedIds(row, await ackedIds(db)));
}

/** The query and body parameters as the engine will read them (the body wins); a message why not, for a file or an oversized body. */
async function readParams(request: Request, url: URL): Promise<Record<string, string> | string> {
  const params: Record<string, string> = Object.fromEntries(url.searchParams);
  const body = await readBoundedBody(request.clone(), MAX_MUTATION_BYTES);
  if (!body) return 'This request is too large to sync';
  if (body.byteLength === 0) return params;
  const contentType = request.headers.get('content-type') ?? 'application/x-www-form-urlencoded';
  const form = await new Response(body, { headers: { 'Content-Type': contentType } }).formData().catch(() => null);
  if (!form) return 'This request body cannot be read';
  for (const [name, value] of form) {
    if (typeof value !== 'string') return 'A synced replica takes a file only as an upload (POST /user_uploads)';
    params[name] = value;
  }
  return params;
}
