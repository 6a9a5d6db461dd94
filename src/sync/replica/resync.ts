import { randomUuid } from '../../engine/crypto/portable-crypto.ts';
import { runAction } from '../../engine/services/run-action.ts';
import type { EngineServices } from '../../engine/services/engine-services.ts';
import type { RealmDatabase } from '../../engine/storage/database.ts';
import { rederivedUserMessage } from '../../engine/storage/flags.ts';
import type { MessageRow, SyncOutboxRow, SyncRefusalRow, UserMessageRow } from '../../engine/storage/rows.ts';
import { refusedSendFields } from './refused-message.ts';
import { messageIdsOf, syncedRequest } from '../mutations.ts';
import { isProvisionalId, PROVISIONAL_ID_BASE, type SnapshotAnswer } from '../protocol.ts';

/** The replica's own tables, which a snapshot never replaces (the files fetched from the hub stay readable offline). */
const KEPT_TABLES = new Set(['sync_outbox', 'sync_refusals', 'sync_files']);

/**
 * Replaces the replica's realm with the hub's snapshot of its user's view, in one transaction
 * with the new checkpoint (docs/SYNC.md, replica rule 7). Provisional messages of pending sends
 * stay. On a new hub or epoch, a pending change that names a hub message of the old realm cannot
 * be offered again and is recorded as refused; the sends the old hub had acknowledged but this
 * replica never pulled went with the old realm and are reported too. Local event queues close:
 * their clients register again, as after a server restart.
 */
export async function applySnapshot(engine: EngineServices, snapshot: SnapshotAnswer): Promise<void> {
  await runAction(engine, async ({ db }) => {
    const state = await db.sync_replica.get(1);
    const sameRealm = state?.hub_id === snapshot.hub_id && state.epoch === snapshot.epoch;
    const outbox = await db.sync_outbox.toArray();
    const provisional = await provisionalRows(db);
    const recipientNext = (await db.counters.get('recipient'))?.next ?? 0;
    const lost = state && !sameRealm ? outbox.filter(namesOldRealm) : [];
    // The hub had sent an acknowledged send's message before this snapshot: it is here, or gone
    // since (deleted, moved out of sight), which no later pull would tell. Either way the send is settled.
    const settled = outbox.filter((row) => sameRealm && row.final_id !== undefined);
    const dropped = new Set([...lost, ...settled].map((row) => row.mutation_id));
    const droppedProvisional = new Set([...lost, ...settled].map((row) => row.provisional_id));

    for (const table of db.tables) if (!KEPT_TABLES.has(table.name)) await table.clear();
    for (const [name, rows] of Object.entries(snapshot.tables)) {
      await db.table(name).bulkPut(name === 'user_messages' ? placedUserMessages(rows, snapshot.tables.messages ?? []) : rows);
    }
    await db.messages.bulkPut(provisional.messages.filter((m) => !droppedProvisional.has(m.id)));
    await db.user_messages.bulkPut(provisional.userMessages.filter((um) => !droppedProvisional.has(um.message_id)));
    await db.reactions.bulkPut(provisional.reactions.filter((r) => !droppedProvisional.has(r.message_id)));
    await db.sync_outbox.bulkDelete([...dropped]);
    await db.sync_refusals.bulkPut(lost.map(resetRefusal));
    // Ids this replica hands out never meet the hub's.
    const highest = Math.max(PROVISIONAL_ID_BASE - 1, ...provisional.messages.map((m) => m.id));
    await db.counters.bulkPut([
      { name: 'message', next: highest + 1 },
      { name: 'recipient', next: Math.max(PROVISIONAL_ID_BASE, recipientNext) },
    ]);
    await db.sync_replica.put({
      id: 1,
      hub_id: snapshot.hub_id,
      epoch: snapshot.epoch,
      cursor: snapshot.cursor,
      client_id: state?.client_id ?? randomUuid(),
      next_mutation_id: state?.next_mutation_id ?? 1,
      // The history the snapshot brought; a channel's not brought (an older hub) is asked for after.
      history_channel_ids: snapshot.history_channel_ids ?? [],
    });
  });
  engine.queues.close();
}

/**
 * The snapshot's flags rows with their place and index columns derived from the snapshot's
 * messages, as every writer derives them; a row whose message the snapshot lacks is dropped
 * (no page could ever read it).
 */
function placedUserMessages(rows: Record<string, unknown>[], messages: Record<string, unknown>[]): UserMessageRow[] {
  const byId = new Map((messages as unknown as MessageRow[]).map((m) => [m.id, m]));
  return (rows as unknown as UserMessageRow[]).flatMap((row) => {
    const message = byId.get(row.message_id);
    return message ? [rederivedUserMessage({ ...row }, message)] : [];
  });
}

async function provisionalRows(db: RealmDatabase) {
  const messages = await db.messages.where('id').aboveOrEqual(PROVISIONAL_ID_BASE).toArray();
  const ids = messages.map((m) => m.id);
  return {
    messages,
    userMessages: await db.user_messages.where('message_id').anyOf(ids).toArray(),
    reactions: await db.reactions.where('message_id').anyOf(ids).toArray(),
  };
}

/** An acknowledged send (its message was the old realm's), or a change naming one of the old realm's messages. */
function namesOldRealm(row: SyncOutboxRow): boolean {
  if (row.state === 'acked') return true;
  const request = syncedRequest(row.method, row.path, row.params);
  if (typeof request === 'string') return true;
  return (messageIdsOf(request) ?? []).some((id) => !isProvisionalId(id));
}

function resetRefusal(row: SyncOutboxRow): SyncRefusalRow {
  return {
    mutation_id: row.mutation_id,
    method: row.method,
    path: row.path,
    status: 409,
    msg: row.state === 'acked' ? 'The hub was reset after it received this change' : 'The hub was reset: this change names a message it no longer has',
    code: 'SYNC_HUB_RESET',
    ...refusedSendFields(row),
  };
}
