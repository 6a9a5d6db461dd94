import type { Engine } from '../../engine/engine.ts';
import { API_PREFIX } from '../../engine/engine.ts';
import { ApiError } from '../../engine/errors/api-error.ts';
import type { SyncMutationRow, UserRow } from '../../engine/storage/rows.ts';
import { forwardedRequest, messageIdsOf, syncedRequest, withFinalIds } from '../mutations.ts';
import { isProvisionalId, type MutationError, type MutationResult, type PushedMutation, UNSUPPORTED_ACTION } from '../protocol.ts';

/**
 * Applies a replica's mutations exactly once, each as the pushing user's own API request:
 * `engine.handle` with the push's own Authorization, so authentication, parameter checks,
 * permissions and events are the API's. A mutation is a synced write (`mutations.ts`) or any
 * other API write a replica forwards (`forwardedRequest`: its path shape bounded; only a
 * `write` endpoint can take the transaction hook, so the engine refuses the rest). The client's `last_mutation_id` and the mutation's
 * result are written inside the action's transaction; a refusal is recorded on its own (the
 * action left nothing). A retried mutation gets its recorded result.
 */
export async function applyMutations(
  engine: Engine,
  caller: UserRow,
  authorization: string,
  clientId: string,
  mutations: readonly PushedMutation[],
): Promise<MutationResult[]> {
  const { lastMutationId, recorded } = await openPush(engine, caller, clientId, mutations);
  // Pushes of one client run one at a time (SyncHub), so this follows the stored value; the
  // transaction that applies a mutation checks the stored one again.
  let last = lastMutationId;
  const results: MutationResult[] = [];
  for (const mutation of mutations) {
    const row = recorded.get(mutation.mutation_id) ?? (await applyOne(engine, authorization, clientId, mutation, last));
    // A server fault is no answer: the mutation stays the replica's to offer again.
    if (!row) break;
    last = Math.max(last, mutation.mutation_id);
    results.push(resultOf(row));
  }
  return results;
}

/**
 * One transaction before the mutations run: binds a new client id to the caller (another
 * user's client id is refused), forgets the settled results and reads a retried push's
 * recorded ones. A replica pushes its unsettled changes oldest first, so it has settled every
 * change below the first one it pushes: their results (sends' id mappings included) are never
 * asked for again. This bounds what the hub keeps per client to its last push not yet settled.
 */
function openPush(
  engine: Engine,
  caller: UserRow,
  clientId: string,
  mutations: readonly PushedMutation[],
): Promise<{ lastMutationId: number; recorded: Map<number, SyncMutationRow> }> {
  const { db } = engine;
  return db.transaction('rw', db.sync_clients, db.sync_mutations, async () => {
    const client = await db.sync_clients.get(clientId);
    if (client && client.user_id !== caller.id) {
      throw new ApiError('This sync client belongs to another user', { code: 'UNAUTHORIZED', status: 403 });
    }
    if (!client) await db.sync_clients.put({ client_id: clientId, user_id: caller.id, last_mutation_id: 0 });
    if (mutations.length > 0) {
      const oldest = Math.min(...mutations.map((m) => m.mutation_id));
      await db.sync_mutations.where('[client_id+mutation_id]').between([clientId, 0], [clientId, oldest]).delete();
    }
    const rows = await db.sync_mutations.bulkGet(mutations.map((m): [string, number] => [clientId, m.mutation_id]));
    return {
      lastMutationId: client?.last_mutation_id ?? 0,
      recorded: new Map(rows.filter((row) => row !== undefined).map((row) => [row.mutation_id, row])),
    };
  });
}

async function applyOne(
  engine: Engine,
  authorization: string,
  clientId: string,
  mutation: PushedMutation,
  lastMutationId: number,
): Promise<SyncMutationRow | null> {
  const base = { client_id: clientId, mutation_id: mutation.mutation_id };
  if (mutation.mutation_id <= lastMutationId) {
    // Applied before, but its record is gone: say so rather than run it again.
    return refuse(engine, base, 400, { msg: 'This change was already applied', code: 'SYNC_ALREADY_APPLIED' });
  }
  const known = syncedRequest(mutation.method, mutation.path, mutation.params);
  const synced = typeof known === 'string' ? forwardedRequest(mutation.method, mutation.path, mutation.params) : known;
  if (typeof synced === 'string') return refuse(engine, base, 400, { msg: synced, code: UNSUPPORTED_ACTION });
  const finalIds = new Map<number, number>();
  for (const id of (messageIdsOf(synced) ?? []).filter(isProvisionalId)) {
    const send = await engine.db.sync_mutations.where('[client_id+provisional_id]').equals([clientId, id]).first();
    if (send?.final_id !== undefined) finalIds.set(id, send.final_id);
  }
  const request = withFinalIds(synced, (id) => finalIds.get(id));
  if (!request) return refuse(engine, base, 400, { msg: 'The message this change refers to was never sent', code: 'SYNC_UNKNOWN_MESSAGE' });

  let applied: SyncMutationRow | null = null;
  const response = await engine.handle(
    new Request(`http://sync.invalid${API_PREFIX}${request.path}`, {
      method: request.method,
      headers: { Authorization: authorization, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(request.params).toString(),
    }),
    {
      inTransaction: async (scope, answer) => {
        const current = await scope.db.sync_clients.get(clientId);
        if (!current || current.last_mutation_id >= mutation.mutation_id) throw new Error('sync: concurrent push of one client');
        await scope.db.sync_clients.put({ ...current, last_mutation_id: mutation.mutation_id });
        const body = answer instanceof Response ? {} : answer;
        applied = { ...base, outcome: 'applied', status: 200, body };
        if (mutation.provisional_id !== undefined && typeof body.id === 'number') {
          Object.assign(applied, { provisional_id: mutation.provisional_id, final_id: body.id });
        }
        await scope.db.sync_mutations.put(applied);
      },
    },
  );
  if (response.ok) return applied;
  if (response.status >= 500) return null;
  // The whole error, its own fields included (a forwarded request's client reads them).
  const { result: _result, ...error } = (await response.json()) as Record<string, unknown>;
  return refuse(engine, base, response.status, { ...error, msg: String(error.msg ?? ''), code: String(error.code ?? 'BAD_REQUEST') });
}

async function refuse(
  engine: Engine,
  base: { client_id: string; mutation_id: number },
  status: number,
  error: MutationError,
): Promise<SyncMutationRow> {
  const row: SyncMutationRow = { ...base, outcome: 'refused', status, body: { result: 'error', ...error } };
  await engine.db.transaction('rw', engine.db.sync_clients, engine.db.sync_mutations, async () => {
    const client = await engine.db.sync_clients.get(base.client_id);
    if (client && client.last_mutation_id < base.mutation_id) {
      await engine.db.sync_clients.put({ ...client, last_mutation_id: base.mutation_id });
    }
    await engine.db.sync_mutations.put(row);
  });
  return row;
}

function resultOf(row: SyncMutationRow): MutationResult {
  if (row.outcome === 'refused') {
    const { result: _result, ...error } = row.body;
    return { mutation_id: row.mutation_id, outcome: 'refused', status: row.status, error: { ...error, msg: String(error.msg), code: String(error.code) } };
  }
  const result: MutationResult = { mutation_id: row.mutation_id, outcome: 'applied', answer: row.body };
  if (row.final_id !== undefined) result.final_id = row.final_id;
  return result;
}
