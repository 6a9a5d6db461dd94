import { canReadChannelHistory } from '../permissions/channel-access.ts';
import type { RealmDirectory } from '../directory/realm-directory.ts';
import { activeSubscriptionsOf, topicPoliciesOf } from '../directory/cached-reads.ts';
import type { RealmDatabase } from '../storage/database.ts';
import type { SubscriptionRow, UserRow } from '../storage/rows.ts';
import { type NarrowTerm, termsOf } from './narrow-terms.ts';

/** Everything a narrow needs besides the messages themselves, read once per request. */
export interface NarrowScope {
  db: RealmDatabase;
  directory: RealmDirectory;
  viewer: UserRow;
  terms: readonly NarrowTerm[];
  /** Whether channel messages the viewer never received (shared history) are included. */
  includeHistory: boolean;
  /** The viewer's active subscriptions by channel id. */
  subscriptions: ReadonlyMap<number, SubscriptionRow>;
  /** The viewer's topic visibility policies by `${stream_id}:${topic_key}`. */
  topicPolicies: ReadonlyMap<string, number>;
}

export const loadNarrowScope = async (
  db: RealmDatabase,
  directory: RealmDirectory,
  viewer: UserRow,
  terms: readonly NarrowTerm[],
): Promise<NarrowScope> => {
  const [subscriptionRows, topicPolicies] = await Promise.all([activeSubscriptionsOf(db, viewer.id), topicPoliciesOf(db, viewer.id)]);
  const subscriptions = new Map(subscriptionRows.map((s) => [s.channel_id, s]));
  return {
    db,
    directory,
    viewer,
    terms,
    includeHistory: includesHistory(directory, viewer, terms, subscriptions),
    subscriptions,
    topicPolicies,
  };
};

/**
 * Upstream's rule for searching shared history: a positive channel term whose history the
 * viewer may read, or `channels:public` for a non-guest — unless a per-user `is:` term
 * (anything but `is:resolved`) makes only received messages meaningful. The narrow's own
 * terms then keep the results inside that channel (or the public ones).
 */
function includesHistory(
  directory: RealmDirectory,
  viewer: UserRow,
  terms: readonly NarrowTerm[],
  subscriptions: ReadonlyMap<number, SubscriptionRow>,
): boolean {
  let include = false;
  for (const term of terms) {
    if (term.negated) continue;
    if (term.kind === 'channel') {
      const channel = directory.channels.get(term.channelId)!;
      include = canReadChannelHistory(viewer, channel, subscriptions.has(channel.id));
    } else if (term.kind === 'channels-public' && viewer.role !== 600) {
      include = true;
    }
  }
  if (termsOf(terms, 'is').some((term) => term.flag !== 'resolved')) include = false;
  return include;
}
