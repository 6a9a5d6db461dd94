import fc from 'fast-check';
import { expect, vi } from 'vitest';
import { PROVISIONAL_ID_BASE } from '../../src/sync/protocol.ts';
import { IDS } from '../support/test-realm.ts';
import { SyncWorld, type TestReplica } from './sync-fixture.ts';

// The steps of the interleavings tests (interleavings.test.ts runs them one at a time with sync
// rounds between; live-interleavings.test.ts runs them side by side under live loops), and the
// comparison of a replica with the hub they end with.

export const EMOJI = ['smile', 'octopus', 'tada'];

/** One step of a run: a change on one replica, a sync round over a link in some state, or a change by a client of the hub itself. */
export type Step =
  | { side: 0 | 1; kind: PlainKind }
  | { side: 0 | 1; kind: PickKind; pick: number; emoji: number }
  | { side: 0 | 1; kind: 'sync'; link: 'up' | 'down' | 'answers-lost' }
  | { kind: 'hub'; action: HubAction; pick: number };

export type HubAction = 'send' | 'move' | 'delete' | 'react' | 'edit' | 'star' | 'remove' | 'privacy' | 'archive' | 'add' | 'role' | 'rename' | 'profile' | 'self';

export type PlainKind =
  | 'send' | 'dm' | 'join' | 'leave' | 'create' | 'mute' | 'topic-policy' | 'read-topic' | 'read-all'
  | 'read-channel' | 'read-narrow' | 'pin' | 'invite' | 'kick' | 'mute-topic';
export type PickKind = 'edit' | 'delete' | 'react' | 'unreact' | 'star' | 'unstar' | 'read' | 'unread' | 'move' | 'resolve';

const side = fc.constantFrom<0 | 1>(0, 1);
export const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    side,
    kind: fc.constantFrom<PlainKind>(
      'send', 'dm', 'join', 'leave', 'create', 'mute', 'topic-policy', 'read-topic', 'read-all',
      'read-channel', 'read-narrow', 'pin', 'invite', 'kick', 'mute-topic',
    ),
  }),
  fc.record({
    side,
    kind: fc.constantFrom<PickKind>('edit', 'delete', 'react', 'unreact', 'star', 'unstar', 'read', 'unread', 'move', 'resolve'),
    pick: fc.nat(),
    emoji: fc.nat(EMOJI.length - 1),
  }),
  fc.record({ side, kind: fc.constant('sync' as const), link: fc.constantFrom('up' as const, 'down' as const, 'answers-lost' as const) }),
  fc.record({ kind: fc.constant('hub' as const), action: fc.constantFrom<HubAction>('send', 'move', 'delete', 'react', 'edit', 'star', 'remove', 'privacy', 'archive', 'add', 'role', 'rename', 'profile', 'self'), pick: fc.nat() }),
);

/** Olivia, an owner, on the hub's API meanwhile. */
export async function onHub(world: SyncWorld, s: Extract<Step, { kind: 'hub' }>, n: number): Promise<void> {
  if (s.action === 'self') return onHubAsReplicaUser(world, s.pick, n);
  const olivia = world.onHub('olivia');
  const { body } = await olivia.get('/messages', { anchor: 'newest', num_before: 1000, num_after: 0, narrow: [{ operator: 'channels', operand: 'public' }] });
  const messages = body.messages as { id: number; subject: string; sender_id: number; stream_id: number }[];
  if (s.action === 'remove') await olivia.delete('/users/me/subscriptions', { subscriptions: ['design'], principals: [s.pick % 2 ? IDS.mark : IDS.mia] });
  if (s.action === 'privacy') await olivia.patch(`/streams/${IDS.design}`, { is_private: s.pick % 2 === 1, history_public_to_subscribers: s.pick % 4 < 2 });
  if (s.action === 'archive' && s.pick % 3 === 0) await olivia.delete(`/streams/${IDS.design}`);
  if (s.action === 'add') await olivia.post('/users/me/subscriptions', { subscriptions: [{ name: 'design' }], principals: [s.pick % 2 ? IDS.mark : IDS.mia] });
  // A replica's user made a guest (or a moderator, or a member again): that replica resyncs, its queued changes kept.
  if (s.action === 'role') await olivia.patch(`/users/${s.pick % 2 ? IDS.mark : IDS.mia}`, { role: [600, 300, 400][s.pick % 3] });
  // Renamed: a replica's join or send by the old name then reaches the hub as a new name.
  if (s.action === 'rename') await olivia.patch(`/streams/${IDS.design}`, { new_name: s.pick % 2 ? 'drafting' : 'design' });
  if (s.action === 'profile') await olivia.patch(`/users/${s.pick % 2 ? IDS.mark : IDS.mia}`, { full_name: `Renamed ${n}` });
  if (['remove', 'privacy', 'archive', 'add', 'role', 'rename', 'profile'].includes(s.action)) return;
  if (s.action === 'send') await olivia.post('/messages', { type: 'stream', to: n % 2 ? 'general' : 'design', topic: n % 3 ? 'run' : 'hub', content: `olivia-${n}` });
  if (messages.length === 0 || s.action === 'send') return;
  const { id } = messages[s.pick % messages.length]!;
  // Every fifth move goes to the other channel (which the replica's user may not see).
  const elsewhere = s.pick % 5 === 4 ? { stream_id: messages.find((m) => m.id === id)?.stream_id === IDS.general ? IDS.design : IDS.general } : {};
  if (s.action === 'move') await olivia.patch(`/messages/${id}`, { topic: s.pick % 2 ? 'run' : 'moved', propagate_mode: ['change_one', 'change_later', 'change_all'][s.pick % 3], ...elsewhere });
  if (s.action === 'delete') await olivia.delete(`/messages/${id}`);
  if (s.action === 'react') await olivia.post(`/messages/${id}/reactions`, { emoji_name: EMOJI[s.pick % EMOJI.length] });
  if (s.action === 'edit' && messages.find((m) => m.id === id)?.sender_id === 8) await olivia.patch(`/messages/${id}`, { content: `olivia edited ${n}` });
  if (s.action === 'star') await olivia.post('/messages/flags', { messages: [id], op: 'add', flag: 'starred' });
}

/** A replica's user on another device of theirs, a client of the hub itself. */
async function onHubAsReplicaUser(world: SyncWorld, pick: number, n: number): Promise<void> {
  const user = pick % 2 ? 'mark' : 'mia';
  const api = world.onHub(user);
  const { body } = await api.get('/messages', { anchor: 'newest', num_before: 1000, num_after: 0 });
  const messages = body.messages as { id: number; sender_id: number; type: string }[];
  const own = messages.filter((m) => m.sender_id === IDS[user]);
  const op = Math.floor(pick / 2) % 6;
  if (op === 0) await api.post('/mark_all_as_read');
  if (op === 1 && messages.length > 0) await api.post('/messages/flags', { messages: [messages[n % messages.length]!.id], op: n % 2 ? 'add' : 'remove', flag: n % 3 ? 'starred' : 'read' });
  if (op === 2 && own.length > 0) await api.patch(`/messages/${own[n % own.length]!.id}`, { content: `${user} edited on the hub ${n}` });
  if (op === 3 && messages.length > 0) await api.post(`/messages/${messages[n % messages.length]!.id}/reactions`, { emoji_name: EMOJI[n % EMOJI.length] });
  if (op === 4) await api.post('/users/me/subscriptions/properties', { subscription_data: [{ stream_id: IDS.general, property: 'is_muted', value: n % 2 === 0 }] });
  if (op === 5) await api.post('/user_topics', { stream_id: IDS.general, topic: 'run', visibility_policy: n % 4 });
}

async function localMessages(replica: TestReplica): Promise<{ id: number; sender_id: number; type: string; subject: string; stream_id?: number }[]> {
  const { body } = await replica.api.get('/messages', { anchor: 'newest', num_before: 1000, num_after: 0 });
  return body.messages;
}

/** One change on a replica, on a message picked among those it shows (its own, to edit or delete). */
async function change(replica: TestReplica, s: Extract<Step, { kind: PickKind }>): Promise<void> {
  const messages = await localMessages(replica);
  const own = messages.filter((m) => m.sender_id === replica.userId);
  const inChannels = messages.filter((m) => m.type === 'stream');
  const pool = s.kind === 'edit' || s.kind === 'delete' ? own : s.kind === 'move' || s.kind === 'resolve' ? inChannels : messages;
  if (pool.length === 0) return;
  const { id, subject, stream_id } = pool[s.pick % pool.length]!;
  const emoji_name = EMOJI[s.emoji]!;
  // Local refusals (a reaction twice, a flag already set) are the API's answers: nothing is queued for them.
  if (s.kind === 'edit') await replica.api.patch(`/messages/${id}`, { content: `edited ${id} ${s.pick}` });
  if (s.kind === 'delete') await replica.api.delete(`/messages/${id}`);
  if (s.kind === 'react') await replica.api.post(`/messages/${id}/reactions`, { emoji_name });
  if (s.kind === 'unreact') await replica.api.delete(`/messages/${id}/reactions`, { emoji_name });
  if (s.kind === 'move') {
    const elsewhere = s.pick % 5 === 4 ? { stream_id: stream_id === IDS.general ? IDS.design : IDS.general } : {};
    await replica.api.patch(`/messages/${id}`, { topic: s.pick % 2 ? 'run' : 'elsewhere', propagate_mode: 'change_all', ...elsewhere });
  }
  if (s.kind === 'resolve') {
    const topic = subject.startsWith('✔ ') ? subject.slice(2) : `✔ ${subject}`;
    await replica.api.patch(`/messages/${id}`, { topic, propagate_mode: s.pick % 2 ? 'change_all' : 'change_one' });
  }
  const flag = s.kind === 'star' || s.kind === 'unstar' ? 'starred' : 'read';
  if (s.kind === 'star' || s.kind === 'read') await replica.api.post('/messages/flags', { messages: [id], op: 'add', flag });
  if (s.kind === 'unstar' || s.kind === 'unread') await replica.api.post('/messages/flags', { messages: [id], op: 'remove', flag });
}

/** One change on a replica, as its user's client would make it; `n` counts the run's messages so far. */
export async function act(replica: TestReplica, other: TestReplica, s: Exclude<Step, { kind: 'sync' | 'hub' }>, n: number): Promise<void> {
  if (s.kind === 'send' || s.kind === 'dm') {
    const content = `${replica.user}-${n}`;
    // Every third channel message goes to design, which Mia reads as its history until she joins.
    const channel = n % 3 === 0 ? 'design' : 'general';
    const to = s.kind === 'send' ? { type: 'stream', to: channel, topic: 'run' } : { type: 'direct', to: JSON.stringify([other.userId]) };
    const answer = await replica.api.post('/messages', { ...to, content });
    // Design may have been made private meanwhile: a send there may be refused.
    if (channel === 'general' || s.kind === 'dm') expect(answer.status).toBe(200);
    return;
  }
  if (s.kind === 'join') await replica.api.post('/users/me/subscriptions', { subscriptions: [{ name: 'design' }] });
  if (s.kind === 'leave') await replica.api.delete('/users/me/subscriptions', { subscriptions: ['design'] });
  // A new channel: only the hub gives ids, so this is forwarded (refused while the hub is out of reach).
  if (s.kind === 'create') await replica.api.post('/users/me/subscriptions', { subscriptions: [{ name: `new-${replica.user}-${n}` }] });
  if (s.kind === 'mute') {
    await replica.api.post('/users/me/subscriptions/properties', {
      subscription_data: [{ stream_id: IDS.general, property: 'is_muted', value: n % 2 === 0 }],
    });
  }
  if (s.kind === 'topic-policy') {
    await replica.api.post('/user_topics', { stream_id: IDS.general, topic: 'run', visibility_policy: n % 4 });
  }
  if (s.kind === 'read-topic') await replica.api.post('/mark_topic_as_read', { stream_id: IDS.general, topic_name: 'run' });
  if (s.kind === 'read-all') await replica.api.post('/mark_all_as_read');
  if (s.kind === 'read-channel') await replica.api.post('/mark_stream_as_read', { stream_id: n % 2 ? IDS.general : IDS.design });
  // Marks read (or, every other time, unread) the newest few of a topic, as the web app's "mark as read up to here" does.
  if (s.kind === 'read-narrow') {
    await replica.api.post('/messages/flags/narrow', {
      anchor: 'newest', include_anchor: true, num_before: n % 4, num_after: 0, op: n % 2 ? 'add' : 'remove', flag: 'read',
      narrow: JSON.stringify([{ operator: 'channel', operand: 'general' }, { operator: 'topic', operand: 'run' }]),
    });
  }
  if (s.kind === 'pin') {
    await replica.api.post('/users/me/subscriptions/properties', {
      subscription_data: [{ stream_id: IDS.general, property: 'pin_to_top', value: n % 2 === 0 }, { stream_id: IDS.general, property: 'color', value: n % 2 ? '#76ce90' : '#c2726a' }],
    });
  }
  // Adding the other replica's user to design, or taking them out of it: a member may do the first, not the second; the hub decides the same.
  if (s.kind === 'invite') await replica.api.post('/users/me/subscriptions', { subscriptions: [{ name: 'design' }], principals: [other.userId] });
  if (s.kind === 'kick') await replica.api.delete('/users/me/subscriptions', { subscriptions: ['design'], principals: [other.userId] });
  // The older route for a topic's mute, as older clients call it.
  if (s.kind === 'mute-topic') {
    await replica.api.patch('/users/me/subscriptions/muted_topics', { stream_id: IDS.general, topic: 'run', op: n % 2 ? 'add' : 'remove' });
  }
  if ('pick' in s) await change(replica, s);
}

/** What the replica's user sees equals what the hub shows them: messages, each channel's, channels, users, subscriptions, topic policies; nothing left to push, no provisional message. */
export async function expectSameAsHub(world: SyncWorld, replica: TestReplica): Promise<void> {
  const hubDb = world.hubEngine.db;
  const db = replica.replica.engine.db;
  expect(await SyncWorld.messagesSeen(replica.api)).toEqual(await SyncWorld.messagesSeen(world.onHub(replica.user)));
  // Each channel its user sees, as they read it: what they received and its history they did not.
  const seen = ((await world.onHub(replica.user).get('/streams')).body.streams as { name: string }[]).map((stream) => stream.name);
  for (const channel of seen) {
    const narrow = [{ operator: 'channel', operand: channel }];
    expect(await SyncWorld.messagesSeen(replica.api, narrow)).toEqual(await SyncWorld.messagesSeen(world.onHub(replica.user), narrow));
  }
  for (const [path, field] of [['/streams', 'streams'], ['/users', 'members']] as const) {
    expect((await replica.api.get(path)).body[field]).toEqual((await world.onHub(replica.user).get(path)).body[field]);
  }
  const subscriptions = (await replica.api.get('/users/me/subscriptions', { include_subscribers: true })).body.subscriptions;
  expect(subscriptions).toEqual((await world.onHub(replica.user).get('/users/me/subscriptions', { include_subscribers: true })).body.subscriptions);
  const policies = (database: typeof db) => database.user_topics.where('user_id').equals(replica.userId).toArray();
  expect(await policies(db)).toEqual(await policies(hubDb));
  expect(await db.sync_outbox.count()).toBe(0);
  expect(await db.messages.where('id').aboveOrEqual(PROVISIONAL_ID_BASE).count()).toBe(0);
}

/** Watches the engines' reports of an internal error (a 500) from now on; the returned check expects none. */
export function watchInternalErrors(): () => void {
  const reports = vi.spyOn(console, 'error');
  return () => {
    const internal = reports.mock.calls.filter(([first]) => first === 'offline-realm: internal error');
    reports.mockRestore();
    expect(internal.map((call) => String(call[1]))).toEqual([]);
  };
}
