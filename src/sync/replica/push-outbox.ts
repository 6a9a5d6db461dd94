import { RealmDirectory } from '../../engine/directory/realm-directory.ts';
import { runAction } from '../../engine/services/run-action.ts';
import type { EngineServices } from '../../engine/services/engine-services.ts';
import type { SyncOutboxRow } from '../../engine/storage/rows.ts';
import { refusedSendFields } from './refused-message.ts';
import { MAX_PUSH_BYTES, MAX_PUSH_MUTATIONS, type MutationResult, type PushedMutation } from '../protocol.ts';
import { settleSend } from './apply-changes.ts';
import { withAckedIds } from './acked-ids.ts';
import { type HubClient, HubUnreachable } from './hub-client.ts';

/**
 * Offers every pending change to the hub, oldest first, and settles what the answers cover
 * (replica rules 2 and 6). A lost answer leaves the changes pending; the hub answers a retry
 * with the results it recorded. Returns whether a refusal needs a full resync to roll back.
 *
 * With `forward` (a write only the hub can do, numbered after every change queued before it),
 * only the changes below it are offered, and it goes last in the push that offers the last of
 * them: the hub sees them first. Its result is returned, for its client; it has no outbox row.
 */
export async function pushOutbox(
  engine: EngineServices,
  client: HubClient,
  me: number,
  forward?: PushedMutation,
): Promise<{ needsResync: boolean; forwarded?: MutationResult }> {
  let needsResync = false;
  for (;;) {
    const { db } = engine;
    const [state, outbox] = await db.transaction('r', [db.sync_replica, db.sync_outbox], () =>
      Promise.all([db.sync_replica.get(1), db.sync_outbox.toArray()]),
    );
    if (!state) return { needsResync: true };
    const pending = outbox.filter(
      (row) => row.state === 'pending' && (!forward || row.mutation_id < forward.mutation_id),
    );
    const { mutations, bytes } = firstBatch(pending.map(toPushed));
    const withForward =
      forward !== undefined && mutations.length === pending.length && mutations.length < MAX_PUSH_MUTATIONS && bytes + jsonBytes(forward) <= MAX_PUSH_BYTES;
    if (withForward) mutations.push(forward);
    if (mutations.length === 0) return { needsResync };
    const answer = await client.push({ hub_id: state.hub_id, epoch: state.epoch, client_id: state.client_id, mutations });
    if (await settle(engine, me, answer.results)) needsResync = true;
    // The hub stops at a fault of its own: what it did not answer stays pending.
    if (answer.results.length < mutations.length) throw new HubUnreachable('the hub did not answer every change');
    if (withForward) return { needsResync, forwarded: answer.results.find((result) => result.mutation_id === forward.mutation_id) };
  }
}

const jsonBytes = (value: unknown): number => new TextEncoder().encode(JSON.stringify(value)).byteLength;

/**
 * The oldest mutations one push may carry, always the first: at most `MAX_PUSH_MUTATIONS`, and
 * `MAX_PUSH_BYTES` of JSON (counted per mutation; the separators between them are left to the
 * hub's margin over it).
 */
function firstBatch(all: PushedMutation[]): { mutations: PushedMutation[]; bytes: number } {
  let bytes = 0;
  const mutations: PushedMutation[] = [];
  for (const mutation of all) {
    const size = jsonBytes(mutation);
    if (mutations.length > 0 && (mutations.length === MAX_PUSH_MUTATIONS || bytes + size > MAX_PUSH_BYTES)) break;
    mutations.push(mutation);
    bytes += size;
  }
  return { mutations, bytes };
}

function toPushed(row: SyncOutboxRow): PushedMutation {
  const mutation: PushedMutation = { mutation_id: row.mutation_id, method: row.method as PushedMutation['method'], path: row.path, params: row.params };
  if (row.provisional_id !== undefined) mutation.provisional_id = row.provisional_id;
  return mutation;
}

/** Records the hub's answers in one transaction; true when a refused change can only be rolled back by a resync. */
function settle(engine: EngineServices, me: number, results: readonly MutationResult[]): Promise<boolean> {
  return runAction(engine, async (scope) => {
    const { db } = scope;
    const directory = await RealmDirectory.load(db);
    let needsResync = false;
    const acked = new Map<number, number>();
    const touched = new Set<number>();
    for (const result of results) {
      const row = await db.sync_outbox.get(result.mutation_id);
      if (!row || row.state !== 'pending') continue;
      for (const id of row.touched_ids ?? []) touched.add(id);
      if (result.outcome === 'applied') {
        if (row.provisional_id !== undefined && result.final_id !== undefined) {
          await db.sync_outbox.put({ ...row, state: 'acked', final_id: result.final_id });
          acked.set(row.provisional_id, result.final_id);
        } else {
          await db.sync_outbox.delete(row.mutation_id);
        }
        continue;
      }
      await db.sync_refusals.put({
        mutation_id: row.mutation_id,
        method: row.method,
        path: row.path,
        status: result.status,
        msg: result.error.msg,
        code: result.error.code,
        ...refusedSendFields(row),
      });
      if (row.provisional_id !== undefined) await settleSend(scope, directory, me, row);
      else {
        await db.sync_outbox.delete(row.mutation_id);
        needsResync = true;
      }
    }
    // Changes still to push name the acknowledged sends by the hub's ids (the hub may forget the sends).
    for (const row of await db.sync_outbox.toArray()) {
      if (row.state === 'pending' && acked.size > 0) await db.sync_outbox.put(withAckedIds(row, acked));
    }
    // The hub's run of a change may have touched fewer messages than the local one (it met another
    // state): what the pulls after this do not bring is read again (`SyncReplica`), so no local effect outlives it.
    if (touched.size > 0) {
      const state = await db.sync_replica.get(1);
      if (state) await db.sync_replica.put({ ...state, refresh_ids: [...new Set([...(state.refresh_ids ?? []), ...touched])] });
    }
    return needsResync;
  });
}
