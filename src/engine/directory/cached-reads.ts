import type { RealmDatabase } from '../storage/database.ts';
import type { SubscriptionRow } from '../storage/rows.ts';
import { memoised } from './realm-directory.ts';

/**
 * Reads every send, reaction, flag change and page makes, kept beside the cached directory
 * (`memoised`: dropped by any write to their tables) so a hot request issues no IndexedDB
 * request for them. Values are frozen: they are shared by every caller until the next write.
 */

/** User ids of a channel's active subscriptions (deactivated users included), ascending. */
export function channelSubscriberIds(db: RealmDatabase, channelId: number): Promise<readonly number[]> {
  return memoised(db, `channel-subscribers:${channelId}`, async () =>
    Object.freeze(
      (await db.subscriptions.where('[channel_id+active]').equals([channelId, 1]).primaryKeys()).map(([userId]) => userId).sort((a, b) => a - b),
    ),
  );
}

/** A user's active subscriptions. */
export function activeSubscriptionsOf(db: RealmDatabase, userId: number): Promise<readonly SubscriptionRow[]> {
  return memoised(db, `user-subscriptions:${userId}`, async () =>
    Object.freeze((await db.subscriptions.where('[user_id+active]').equals([userId, 1]).toArray()).map((row) => Object.freeze(row))),
  );
}

/** A user's topic visibility policies, by `topicPolicyKey`. */
export function topicPoliciesOf(db: RealmDatabase, userId: number): Promise<ReadonlyMap<string, number>> {
  return memoised(db, `topic-policies:${userId}`, async () => {
    const rows = await db.user_topics.where('user_id').equals(userId).toArray();
    return new Map(rows.map((row) => [topicPolicyKey(row.stream_id, row.topic_key), row.visibility_policy]));
  });
}

/** The key of a topic in `topicPoliciesOf`. */
export const topicPolicyKey = (streamId: number, topicKey: string): string => `${streamId}:${topicKey}`;

/** Every user's alert words, by user. */
export function alertWordsByUser(db: RealmDatabase): Promise<ReadonlyMap<number, readonly string[]>> {
  return memoised(db, 'alert-words', async () => {
    const byUser = new Map<number, string[]>();
    for (const row of await db.alert_words.toArray()) {
      const words = byUser.get(row.user_id) ?? [];
      words.push(row.word);
      byUser.set(row.user_id, words);
    }
    return byUser;
  });
}

/** The users who muted `userId`. */
export function usersMuting(db: RealmDatabase, userId: number): Promise<ReadonlySet<number>> {
  return memoised(db, `muted-by:${userId}`, async () => {
    const keys = await db.muted_users.where('muted_user_id').equals(userId).primaryKeys();
    return new Set(keys.map(([mutingUserId]) => mutingUserId));
  });
}
