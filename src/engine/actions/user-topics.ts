/**
 * A user's visibility policy for one topic (mute, unmute, follow). Narrows read these rows
 * (`is:followed`, `in:home`); the user's queues get `user_topic` and the legacy `muted_topics`.
 */
import { badRequest } from '../errors/api-error.ts';
import { canReadChannel } from '../permissions/channel-access.ts';
import { normalizeTopic } from '../validation/message-limits.ts';
import type { RealmDirectory } from '../directory/realm-directory.ts';
import type { UserRow, UserTopicRow } from '../storage/rows.ts';
import type { ActionScope, CallerScope } from '../services/action-scope.ts';

export type VisibilityPolicy = UserTopicRow['visibility_policy'];

const INHERIT = 0;
const MUTED = 1;

export interface TopicVisibilityChange {
  streamId: number;
  topic: string;
  policy: VisibilityPolicy;
}

/**
 * Sets (or, with policy 0, clears) the policy. Clearing needs only an existing channel, so a user
 * who lost access can still clean up; any other policy needs access to the channel. Setting the
 * policy a topic already has changes nothing and sends nothing.
 */
export async function setTopicVisibility(scope: CallerScope, change: TopicVisibilityChange): Promise<void> {
  const { directory, caller: actor } = scope;
  const channel = directory.channels.get(change.streamId);
  if (!channel) throw badRequest('Invalid channel ID');
  if (change.policy !== INHERIT) {
    const subscribed = (await scope.db.subscriptions.get([actor.id, channel.id]))?.active === 1;
    if (channel.is_archived || !canReadChannel(actor, channel, subscribed)) throw badRequest('Invalid channel ID');
  }
  const topic = normalizeTopic(change.topic, directory.realm);
  const key: [number, number, string] = [actor.id, channel.id, topic.toLowerCase()];
  const current = await scope.db.user_topics.get(key);

  if (change.policy === INHERIT) {
    if (!current) return;
    await scope.db.user_topics.delete(key);
  } else {
    if (current?.visibility_policy === change.policy) return;
    await scope.db.user_topics.put({
      user_id: actor.id,
      stream_id: channel.id,
      topic_key: key[2],
      topic_name: topic,
      visibility_policy: change.policy,
      last_updated: scope.now,
    });
  }

  const emptyTopicDisplayName = directory.realm.empty_topic_display_name;
  scope.notify({
    event: { type: 'muted_topics', muted_topics: await mutedTopics(scope, directory, actor) },
    users: [actor.id],
    emptyTopicDisplayName,
  });
  scope.notify({
    event: { type: 'user_topic', stream_id: channel.id, topic_name: topic, last_updated: scope.now, visibility_policy: change.policy },
    users: [actor.id],
    emptyTopicDisplayName,
  });
}

/** The legacy PATCH /users/me/subscriptions/muted_topics: a channel named by id or by name. */
export interface LegacyTopicMute {
  channel: { id: number } | { name: string };
  topic: string;
  mute: boolean;
}

/**
 * Mutes a topic (the channel must be readable, as for POST /user_topics) or clears its policy
 * (the channel need only exist: "Topic is not muted" otherwise), as upstream's legacy endpoint;
 * since feature level 170 neither refuses a topic already in that state.
 */
export async function setLegacyTopicMute(scope: CallerScope, change: LegacyTopicMute): Promise<void> {
  const { directory, caller: actor } = scope;
  const ref = change.channel;
  const channel = 'id' in ref ? directory.channels.get(ref.id) : directory.channelByName(ref.name);
  if (!change.mute) {
    if (!channel) throw badRequest('Topic is not muted');
    return setTopicVisibility(scope, { streamId: channel.id, topic: change.topic, policy: INHERIT });
  }
  const subscribed = channel !== undefined && (await scope.db.subscriptions.get([actor.id, channel.id]))?.active === 1;
  if (!channel || channel.is_archived || !canReadChannel(actor, channel, subscribed)) {
    throw badRequest('id' in ref ? 'Invalid channel ID' : `Invalid channel name '${ref.name}'`);
  }
  return setTopicVisibility(scope, { streamId: channel.id, topic: change.topic, policy: MUTED });
}

/** The legacy `muted_topics` list: [channel name, topic, time muted] for every muted topic. */
export async function mutedTopics(scope: ActionScope, directory: RealmDirectory, actor: UserRow): Promise<Array<[string, string, number]>> {
  const rows = await scope.db.user_topics.where('user_id').equals(actor.id).toArray();
  return rows
    .filter((r) => r.visibility_policy === MUTED && directory.channels.has(r.stream_id))
    .sort((a, b) => a.last_updated - b.last_updated)
    .map((r) => [directory.channels.get(r.stream_id)!.name, r.topic_name, r.last_updated]);
}
