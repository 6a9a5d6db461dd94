import { mutedTopics } from '../../engine/actions/user-topics.ts';
import type { RealmDirectory } from '../../engine/directory/realm-directory.ts';
import type { ActionScope } from '../../engine/services/action-scope.ts';
import type { UserRow, UserTopicRow } from '../../engine/storage/rows.ts';

const keyOf = (row: UserTopicRow): string => `${row.stream_id}\u0000${row.topic_key}`;
const sameRow = (a: UserTopicRow | undefined, b: UserTopicRow): boolean =>
  a !== undefined && a.visibility_policy === b.visibility_policy && a.last_updated === b.last_updated && a.topic_name === b.topic_name;

/**
 * Replaces the user's topic visibility policies with the hub's, and tells the local queues what
 * changed as the action does (the legacy `muted_topics`, then `user_topic` per topic); the
 * same rows twice change nothing and tell nothing.
 */
export async function replaceUserTopics(scope: ActionScope, directory: RealmDirectory, me: UserRow, rows: readonly UserTopicRow[]): Promise<void> {
  const { db } = scope;
  const old = new Map((await db.user_topics.where('user_id').equals(me.id).toArray()).map((row) => [keyOf(row), row]));
  const next = new Map(rows.filter((row) => row.user_id === me.id).map((row) => [keyOf(row), row]));
  const changed: UserTopicRow[] = [];
  for (const [key, row] of next) if (old.get(key)?.visibility_policy !== row.visibility_policy) changed.push(row);
  for (const [key, row] of old) if (!next.has(key)) changed.push({ ...row, visibility_policy: 0 });
  // The hub's rows are kept even when no policy changed: the replica's own change has the hub's time (`last_updated`) once the hub ran it.
  const same = changed.length === 0 && [...next].every(([key, row]) => sameRow(old.get(key), row));
  if (same) return;

  await db.user_topics.where('user_id').equals(me.id).delete();
  await db.user_topics.bulkPut([...next.values()]);
  if (changed.length === 0) return;
  const base = { users: [me.id], emptyTopicDisplayName: directory.realm.empty_topic_display_name };
  scope.notify({ ...base, event: { type: 'muted_topics', muted_topics: await mutedTopics(scope, directory, me) } });
  for (const row of changed) {
    scope.notify({
      ...base,
      event: { type: 'user_topic', stream_id: row.stream_id, topic_name: row.topic_name, last_updated: row.last_updated, visibility_policy: row.visibility_policy },
    });
  }
}
