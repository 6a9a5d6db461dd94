import { Dexie } from 'dexie';
import { RealmDirectory } from '../../engine/directory/realm-directory.ts';
import { runAction } from '../../engine/services/run-action.ts';
import type { EngineServices } from '../../engine/services/engine-services.ts';
import type { RealmDatabase } from '../../engine/storage/database.ts';
import type { UserRow } from '../../engine/storage/rows.ts';
import { ownSubscriptions, readableHistoryIds } from '../history-access.ts';
import type { HistoryAnswer } from '../protocol.ts';
import { putBundles } from './message-rows.ts';

/**
 * Channel history on the replica (docs/SYNC.md, "Channel history"): the messages its user may
 * read on the hub without having received them. The snapshot brings them, and pulls bring their
 * changes; a channel whose history the user comes to read (subscribed to a private channel that
 * shares it) is fetched a page at a time after the page that gave access; one whose history the
 * user no longer may read loses it in the page's own transaction. `history_channel_ids` in the
 * checkpoint names the channels held.
 */

/** The channels whose history the user may read, by the replica's rows. */
export async function readableHistory(db: RealmDatabase, directory: RealmDirectory, user: UserRow): Promise<Set<number>> {
  return readableHistoryIds(user, directory.channels.values(), await ownSubscriptions(db, user));
}

/**
 * Drops the history of the held channels no longer readable (the messages the user did not
 * receive, with their reactions; no events, as upstream tells none when access goes) and
 * returns the channels still held.
 */
export async function dropUnreadableHistory(db: RealmDatabase, me: number, held: readonly number[], readable: ReadonlySet<number>): Promise<number[]> {
  const kept = held.filter((id) => readable.has(id));
  for (const channelId of held.filter((id) => !readable.has(id))) {
    const ids = await db.messages.where('[stream_id+id]').between([channelId, Dexie.minKey], [channelId, Dexie.maxKey]).primaryKeys();
    const received = await db.user_messages.bulkGet(ids.map((id): [number, number] => [me, id]));
    const dropped = ids.filter((_, index) => received[index] === undefined);
    if (dropped.length === 0) continue;
    await db.messages.bulkDelete(dropped);
    await db.reactions.where('message_id').anyOf(dropped).delete();
  }
  return kept;
}

/** The channels whose history the user may read and the replica does not hold yet. */
export async function historyWanted(engine: EngineServices, directory: RealmDirectory, user: UserRow): Promise<number[]> {
  const { db } = engine;
  return db.transaction('r', [db.sync_replica, db.subscriptions], async () => {
    const held = new Set((await db.sync_replica.get(1))?.history_channel_ids ?? []);
    return [...(await readableHistory(db, directory, user))].filter((id) => !held.has(id));
  });
}

/**
 * Applies one page of a channel's history: the messages the replica does not hold (one it holds
 * is kept: its changes come by pulls, with their events), no events. With the last page, the
 * channel counts as held. Nothing is written when the checkpoint's hub changed meanwhile or the
 * user may no longer read the channel's history.
 */
export function applyHistoryPage(
  engine: EngineServices,
  me: number,
  identity: { hub_id: string; epoch: string },
  channelId: number,
  page: HistoryAnswer,
): Promise<void> {
  return runAction(engine, async (scope) => {
    const { db } = scope;
    const state = await db.sync_replica.get(1);
    if (!state || state.hub_id !== identity.hub_id || state.epoch !== identity.epoch) return;
    const directory = await RealmDirectory.load(db);
    const user = directory.users.get(me);
    if (!user || !(await readableHistory(db, directory, user)).has(channelId)) return;
    const held = await db.messages.bulkGet(page.messages.map((bundle) => bundle.message.id));
    await putBundles(db, page.messages.filter((_, index) => held[index] === undefined));
    const channels = state.history_channel_ids ?? [];
    if (page.before === null && !channels.includes(channelId)) await db.sync_replica.put({ ...state, history_channel_ids: [...channels, channelId] });
  });
}
