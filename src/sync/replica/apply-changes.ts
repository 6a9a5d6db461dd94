import { RealmDirectory } from '../../engine/directory/realm-directory.ts';
import type { ActionScope } from '../../engine/services/action-scope.ts';
import { runAction } from '../../engine/services/run-action.ts';
import type { EngineServices } from '../../engine/services/engine-services.ts';
import type { RealmDatabase } from '../../engine/storage/database.ts';
import type { MessageRow, SyncOutboxRow, UserMessageRow, UserRow } from '../../engine/storage/rows.ts';
import type { MessageBundle, PullAnswer } from '../protocol.ts';
import { changesHistoryAccess } from '../history-access.ts';
import { dropUnreadableHistory, readableHistory } from './channel-history.ts';
import { applyChannels, applyUsers } from './entity-rows.ts';
import { arrivedNotice, changedNotices, removedNotice } from './local-notices.ts';
import { deleteMessageRows, localMessages, putBundles } from './message-rows.ts';
import { heldTables, refreshTables } from './table-rows.ts';
import { type ChangedMessage, updateNotices } from './update-notices.ts';
import { replaceUserTopics } from './user-topic-rows.ts';

/** `stale`: the checkpoint moved meanwhile; `pending`: a local change must be pushed first. */
export type ApplyOutcome = 'applied' | 'stale' | 'pending';

/**
 * Applies one pulled page and moves the checkpoint in the same transaction (docs/SYNC.md,
 * replica rules 3-5), only from the checkpoint it was asked for and only while no local change
 * is pending. Local clients get the events of the difference after the commit. `refreshed`:
 * the messages of the checkpoint's `refresh_ids` the page was read for (`SyncReplica`), which
 * leave that list.
 */
export function applyChanges(engine: EngineServices, me: number, askedCursor: number, page: PullAnswer, refreshed: readonly number[] = []): Promise<ApplyOutcome> {
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
    // The hub holds no flags of the user's for these any more: neither does the replica.
    const unflagged = page.messages.filter((bundle) => !bundle.user_message && held.get(bundle.message.id)?.userMessage);
    if (unflagged.length > 0) await db.user_messages.bulkDelete(unflagged.map((bundle): [number, number] => [me, bundle.message.id]));
    const hears = historyAudience(db, directory, me);
    const told: ChangedMessage[] = [];
    for (const bundle of page.messages) {
      const old = held.get(bundle.message.id);
      if (!old) continue;
      // Without flags now (history, or received no more but still readable: moved to a channel the user is not in), told as the hub tells a reader of the channel's history.
      if (bundle.user_message || (await hears(old.message, bundle.message))) told.push({ old, bundle });
    }
    const toldIds = new Set(told.map((change) => change.bundle.message.id));
    const updates = await updateNotices(db, directory, me, told);
    for (const bundle of page.messages) {
      const id = bundle.message.id;
      const old = held.get(id);
      const send = sends.get(id);
      if (!old) {
        // Channel history arriving tells no one, as a message reaches only its recipients' clients.
        if (hasFlags(bundle)) scope.notify(arrivedNotice(directory, me, bundle, send && { queueId: send.queue_id, localId: send.local_id }));
      } else if (toldIds.has(id)) {
        const update = updates.get(id);
        if (update) scope.notify(update);
        for (const notice of await changedNotices(db, directory, user, old, bundle)) scope.notify(notice);
      }
      if (send) await settleSend(scope, directory, me, send);
    }
    const gone = await localMessages(db, me, page.deleted);
    for (const id of page.deleted) {
      const old = gone.get(id);
      if (old) {
        await deleteMessageRows(db, id);
        if (old.userMessage || (await hears(old.message, old.message))) scope.notify(removedNotice(directory, me, old.message));
      }
      const send = sends.get(id);
      if (send) await settleSend(scope, directory, me, send);
    }
    if (page.user_topics) await replaceUserTopics(scope, directory, user, page.user_topics);
    await refreshTables(scope, me, tablesBefore, page.tables);
    const historyHeld = changesHistoryAccess(page) ? await dropUnreadableHistory(db, me, state.history_channel_ids ?? [], await readableHistory(db, directory, user)) : state.history_channel_ids;
    // The page brought these as the hub has them: no need to read them again.
    const brought = new Set([...page.messages.map((bundle) => bundle.message.id), ...page.deleted, ...refreshed]);
    const refresh = state.refresh_ids?.filter((id) => !brought.has(id));
    await db.sync_replica.put({ ...state, cursor: page.cursor, ...(historyHeld && { history_channel_ids: historyHeld }), ...(refresh && { refresh_ids: refresh }) });
    return 'applied';
  });
}

const hasFlags = (bundle: MessageBundle): bundle is MessageBundle & { user_message: UserMessageRow } => bundle.user_message !== null;

/**
 * Whether the user hears of a change to a message they hold no flags of (`was` before it,
 * `now` after): as the hub's edit tells it (`messageAudienceIds`, and a move's history
 * readers), when the message's channel before the change shares its history and the user is
 * subscribed to it, or to the channel a move took the message to. Own subscriptions read once,
 * when first asked.
 */
function historyAudience(db: RealmDatabase, directory: RealmDirectory, me: number): (was: MessageRow, now: MessageRow) => Promise<boolean> {
  let subscribed: Promise<Set<number>> | null = null;
  return async (was, now) => {
    const channel = was.stream_id === undefined ? undefined : directory.channels.get(was.stream_id);
    if (!channel?.history_public_to_subscribers) return false;
    subscribed ??= db.subscriptions.where('[user_id+active]').equals([me, 1]).toArray().then((rows) => new Set(rows.map((s) => s.channel_id)));
    const mine = await subscribed;
    return mine.has(channel.id) || (now.stream_id !== undefined && mine.has(now.stream_id));
  };
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
