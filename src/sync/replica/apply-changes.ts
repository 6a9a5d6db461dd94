import { RealmDirectory } from '../../engine/directory/realm-directory.ts';
import type { ActionScope } from '../../engine/services/action-scope.ts';
import { runAction } from '../../engine/services/run-action.ts';
import type { EngineServices } from '../../engine/services/engine-services.ts';
import type { SyncOutboxRow, UserRow } from '../../engine/storage/rows.ts';
import type { PullAnswer } from '../protocol.ts';
import { applyChannels, applyUsers } from './entity-rows.ts';
import { arrivedNotice, changedNotices, removedNotice } from './local-notices.ts';
import { deleteMessageRows, localMessages, putBundles } from './message-rows.ts';
import { heldTables, refreshTables } from './table-rows.ts';
import { replaceUserTopics } from './user-topic-rows.ts';

/** `stale`: the checkpoint moved meanwhile; `pending`: a local change must be pushed first. */
export type ApplyOutcome = 'applied' | 'stale' | 'pending';

/**
 * Applies one pulled page and moves the checkpoint in the same transaction (docs/SYNC.md,
 * replica rules 3-5), only from the checkpoint it was asked for and only while no local change
 * is pending. Local clients get the events of the difference after the commit.
 */
export function applyChanges(engine: EngineServices, me: number, askedCursor: number, page: PullAnswer): Promise<ApplyOutcome> {
  return runAction(engine, async (scope) => {
    const { db } = scope;
    const [state, outbox] = await Promise.all([db.sync_replica.get(1), db.sync_outbox.toArray()]);
    if (!state || state.hub_id !== page.hub_id || state.epoch !== page.epoch || state.cursor !== askedCursor) return 'stale';
    if (outbox.some((row) => row.state === 'pending')) return 'pending';
    // Read before the page's users: a settings change is told when the user's own row changed.
    const tablesBefore = await heldTables(db, me, page.tables);
    // Users and channels first: the page's messages may be in a channel it brings.
    await applyUsers(scope, me, page.users ?? []);
    await applyChannels(scope, me, page.channels ?? [], page.removed_channels ?? []);
    const directory = await RealmDirectory.load(db);
    const user = directory.users.get(me) as UserRow;
    const sends = new Map(outbox.filter((row) => row.final_id !== undefined).map((row) => [row.final_id!, row]));

    const held = await localMessages(db, me, page.messages.map((bundle) => bundle.message.id));
    await putBundles(db, page.messages);
    for (const bundle of page.messages) {
      const id = bundle.message.id;
      const old = held.get(id);
      const send = sends.get(id);
      if (!old) scope.notify(arrivedNotice(directory, me, bundle, send && { queueId: send.queue_id, localId: send.local_id }));
      else for (const notice of await changedNotices(db, directory, user, old, bundle)) scope.notify(notice);
      if (send) await settleSend(scope, directory, me, send);
    }
    for (const id of page.deleted) {
      const old = await db.messages.get(id);
      if (old) {
        await deleteMessageRows(db, id);
        scope.notify(removedNotice(directory, me, old));
      }
      const send = sends.get(id);
      if (send) await settleSend(scope, directory, me, send);
    }
    if (page.user_topics) await replaceUserTopics(scope, directory, user, page.user_topics);
    await refreshTables(scope, me, tablesBefore, page.tables);
    await db.sync_replica.put({ ...state, cursor: page.cursor });
    return 'applied';
  });
}

/** The hub's message is here: the provisional one goes (after the final one's event), and so does the outbox row. */
export async function settleSend(scope: ActionScope, directory: RealmDirectory, me: number, send: SyncOutboxRow): Promise<void> {
  const { db } = scope;
  if (send.provisional_id !== undefined) {
    const provisional = await db.messages.get(send.provisional_id);
    if (provisional) {
      await deleteMessageRows(db, provisional.id);
      scope.notify(removedNotice(directory, me, provisional));
    }
  }
  await db.sync_outbox.delete(send.mutation_id);
}
