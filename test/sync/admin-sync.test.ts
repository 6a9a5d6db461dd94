import { Dexie } from 'dexie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RealmDirectory } from '../../src/engine/directory/realm-directory.ts';
import { runAction } from '../../src/engine/services/run-action.ts';
import { IDS } from '../support/test-realm.ts';
import {
  eventsOf,
  expectFeedPulledAgainTellsNothing,
  expectNoResync,
  SyncWorld,
  watchedReplicas,
  watchedWorld,
  type Caller,
  type WatchedReplica,
} from './sync-fixture.ts';

let world: SyncWorld;
afterEach(() => world?.close());

/** The realm's users as a caller is shown them (emails as the caller's role may see them). */
const usersSeen = async (api: Caller) => (await api.get('/users')).body.members as Record<string, unknown>[];

describe("the trainer's user groups", () => {
  it("created, joined, left and renamed on the hub reach another user's replica as the hub's client hears them, without a resync", async () => {
    const { world: synced, watched } = await watchedWorld('mark', 'mia');
    world = synced;
    const { mark, mia } = watched;
    const olivia = world.onHub('olivia');

    const created = await olivia.post('/user_groups/create', { name: 'Trainees', description: 'Day one', members: [IDS.mark, IDS.mia] });
    expect(created.status).toBe(200);
    const groupId = created.body.group_id as number;
    expect((await olivia.post(`/user_groups/${groupId}/members`, { add: [IDS.gail], delete: [IDS.mia] })).status).toBe(200);
    expect((await olivia.patch(`/user_groups/${groupId}`, { name: 'Day one trainees' })).status).toBe(200);
    for (const { replica } of [mark, mia]) expect(await replica.sync()).toBe('online');

    for (const { queue, hubQueue } of [mark, mia]) expect(eventsOf(queue, 'user_group')).toEqual(eventsOf(hubQueue, 'user_group'));
    expect(eventsOf(mia.queue, 'user_group').map((e) => [e.op, e.user_ids ?? e.data ?? null])).toEqual([
      ['add', null],
      ['add_members', [IDS.gail]],
      ['remove_members', [IDS.mia]],
      ['update', { name: 'Day one trainees' }],
    ]);
    // Mia heard from the notification bot that she left the group, as her hub client did.
    expect(eventsOf(mia.queue, 'message').map((e) => (e.message as { content: string }).content)).toEqual(
      eventsOf(mia.hubQueue, 'message').map((e) => (e.message as { content: string }).content),
    );
    const hubGroups = await world.hubEngine.db.user_groups.toArray();
    expect(hubGroups.find((group) => group.id === groupId)?.direct_members).toEqual([IDS.mark, IDS.gail]);
    for (const replica of [mark, mia]) {
      expect(await replica.replica.engine.db.user_groups.toArray()).toEqual(hubGroups);
      expect((await replica.api.get('/user_groups')).body).toEqual((await world.onHub(replica.user).get('/user_groups')).body);
    }
    expectNoResync(mark, mia);
    await expectFeedPulledAgainTellsNothing(mark, mia);
  });
});

describe("the trainer's realm settings, defaults, default channels and profile fields", () => {
  it("reach a member's and a guest's replica as their hub clients hear them, without a resync, and a feed pulled again tells nothing", async () => {
    const { world: synced, watched } = await watchedWorld('mark', 'gail');
    world = synced;
    const { mark, gail } = watched;
    const olivia = world.onHub('olivia');

    expect((await olivia.patch('/realm', { name: 'Training Room', allow_message_editing: false })).status).toBe(200);
    expect((await olivia.patch('/realm/user_settings_defaults', { enter_sends: true })).status).toBe(200);
    expect((await olivia.post('/default_streams', { stream_id: IDS.design })).status).toBe(200);
    const field = await olivia.post('/realm/profile_fields', { name: 'Team', hint: 'Your team', field_type: 1 });
    expect(field.status).toBe(200);
    expect((await world.onHub('mark').patch('/users/me/profile_data', { data: [{ id: field.body.id, value: 'Blue' }] })).status).toBe(200);
    for (const { replica } of [mark, gail]) expect(await replica.sync()).toBe('online');

    const told = ['realm', 'realm_user_settings_defaults', 'default_streams', 'custom_profile_fields', 'realm_user'];
    for (const { queue, hubQueue } of [mark, gail]) expect(eventsOf(queue, ...told)).toEqual(eventsOf(hubQueue, ...told));
    const kinds = ({ queue }: WatchedReplica) => eventsOf(queue, ...told).map((e) => [e.type, e.property ?? null]);
    expect(kinds(mark)).toEqual([
      ['realm', 'name'],
      ['realm', 'default'],
      ['realm_user_settings_defaults', 'enter_sends'],
      ['default_streams', null],
      ['custom_profile_fields', null],
      ['realm_user', null],
    ]);
    // A guest is not told of default channels, as upstream.
    expect(kinds(gail)).toEqual(kinds(mark).filter(([type]) => type !== 'default_streams'));
    const hub = world.hubEngine.db;
    expect((await hub.realm.get(1))?.name).toBe('Training Room');
    for (const table of ['realm', 'custom_profile_fields', 'profile_values'] as const) {
      expect(await mark.replica.engine.db.table(table).toArray()).toEqual(await hub.table(table).toArray());
    }
    // The replica's engine enforces the new setting: Mark's edit is refused there, as on the hub.
    const sent = await world.onHub('mark').post('/messages', { type: 'stream', to: IDS.general, topic: 'edits', content: 'first' });
    for (const { replica } of [mark, gail]) expect(await replica.sync()).toBe('online');
    const edit = { content: 'second' };
    expect(await mark.api.patch(`/messages/${sent.body.id}`, edit)).toEqual(await world.onHub('mark').patch(`/messages/${sent.body.id}`, edit));
    expect((await mark.api.patch(`/messages/${sent.body.id}`, edit)).body.msg).toBe('Your organization has turned off message editing');
    expectNoResync(mark, gail);
    await expectFeedPulledAgainTellsNothing(mark, gail);
  });
});

describe('a role change', () => {
  it("resyncs its user's replica alone, which then shows what the new role sees; another user's replica learns the role and its groups incrementally", async () => {
    world = await SyncWorld.create();
    // No endpoint changes the realm's email_address_visibility (a scenario setting): administrators only see real emails.
    await world.hubEngine.db.realm.update(1, { email_address_visibility: 3 });
    const { mark, mia } = await watchedReplicas(world, 'mark', 'mia');
    expect((await usersSeen(mark.api)).find((user) => user.user_id === IDS.mia)?.email).toBe(`user${IDS.mia}@zulip.test`);

    expect((await world.onHub('olivia').patch(`/users/${IDS.mark}`, { role: 200 })).status).toBe(200);
    for (const { replica } of [mark, mia]) expect(await replica.sync()).toBe('online');

    // Mark's replica took his new view: real emails and the private channel he was never in.
    expect(mark.snapshots.count).toBe(1);
    expect(() => mark.replica.engine.queues.get(mark.queue.id, mark.userId)).toThrow();
    const hubMark = world.onHub('mark');
    expect(await usersSeen(mark.api)).toEqual(await usersSeen(hubMark));
    expect((await usersSeen(mark.api)).find((user) => user.user_id === IDS.mia)?.email).toBe('mia@zulip.test');
    const channelIds = async (api: Caller) => ((await api.get('/streams')).body.streams as { stream_id: number }[]).map((c) => c.stream_id);
    expect(await channelIds(mark.api)).toEqual(await channelIds(hubMark));
    expect(await channelIds(mark.api)).toContain(IDS.secret);

    // Mia's replica stays open: the role and the role groups' membership come as her hub client heard them.
    const told = ['realm_user', 'user_group'];
    expect(eventsOf(mia.queue, ...told)).toEqual(eventsOf(mia.hubQueue, ...told));
    expect(eventsOf(mia.queue, ...told)).toEqual([
      { type: 'realm_user', op: 'update', person: { user_id: IDS.mark, role: 200 } },
      { type: 'user_group', op: 'remove_members', group_id: 5, user_ids: [IDS.mark] },
      { type: 'user_group', op: 'add_members', group_id: 3, user_ids: [IDS.mark] },
    ]);
    expect(await usersSeen(mia.api)).toEqual(await usersSeen(world.onHub('mia')));
    expect((await usersSeen(mia.api)).find((user) => user.user_id === IDS.mark)).toMatchObject({ role: 200, email: `user${IDS.mark}@zulip.test` });
    expectNoResync(mia);

    // The feed names Mark alone for a resync.
    const feed = await world.hubEngine.db.sync_changes.toArray();
    expect(feed.filter((change) => change.kind === 'realm').map((change) => change.users)).toEqual([[IDS.mark]]);
    await expectFeedPulledAgainTellsNothing(mia);
  });
});

describe('a role changed while the hub reads for the replica', () => {
  it("is read as the read's transaction finds it: the snapshot of a guest made moderator holds what a moderator sees, not what the guest did", async () => {
    world = await SyncWorld.create();
    const gail = await world.replicaOf('gail');
    expect(await gail.replica.sync()).toBe('online');
    // The hub authenticates each call before its read begins: as a guest, here, then the role changes under it.
    const asGuest = await RealmDirectory.load(world.hubEngine.db);
    expect((await world.onHub('olivia').patch(`/users/${IDS.gail}`, { role: 300 })).status).toBe(200);
    const load = RealmDirectory.load.bind(RealmDirectory);
    vi.spyOn(RealmDirectory, 'load').mockImplementation((db) => (db === world.hubEngine.db && !Dexie.currentTransaction ? Promise.resolve(asGuest) : load(db)));
    expect(await gail.replica.sync()).toBe('online');
    vi.restoreAllMocks();

    const channels = async (api: Caller) => ((await api.get('/streams')).body.streams as { name: string }[]).map((c) => c.name);
    expect(await channels(gail.api)).toEqual(await channels(world.onHub('gail')));
    expect(await channels(gail.api)).toContain('announce');
  });
});

describe('a resync the hub asks for, whose snapshot fails', () => {
  it('is asked for again by the next round: the checkpoint did not move past it', async () => {
    world = await SyncWorld.create();
    const gail = await world.replicaOf('gail');
    expect(await gail.replica.sync()).toBe('online');
    expect((await world.onHub('olivia').patch(`/users/${IDS.gail}`, { role: 300 })).status).toBe(200);
    let failing = true;
    gail.link.beforeHub = async (path) => {
      if (failing && path.endsWith('/snapshot')) throw new TypeError('fetch failed');
    };
    expect(await gail.replica.sync()).toBe('offline');
    failing = false;
    const callsBefore = gail.link.calls.length;
    expect(await gail.replica.sync()).toBe('online');
    expect(gail.link.calls.slice(callsBefore)).toContain('/sync/v1/snapshot');

    const channels = async (api: Caller) => ((await api.get('/streams')).body.streams as { name: string }[]).map((c) => c.name);
    expect(await channels(gail.api)).toEqual(await channels(world.onHub('gail')));
    expect(await channels(gail.api)).toContain('announce');
  });
});

describe('a change of email_address_visibility', () => {
  it("still resyncs every replica told of it, which then shows the emails as the hub does", async () => {
    const { world: synced, watched } = await watchedWorld('mia');
    world = synced;
    const { mia } = watched;
    expect((await usersSeen(mia.api)).find((user) => user.user_id === IDS.mark)?.email).toBe('mark@zulip.test');

    // No endpoint changes it (a scenario setting): the hub runs what such an action would write and tell.
    await runAction(world.hubEngine, async (scope) => {
      await scope.db.realm.update(1, { email_address_visibility: 3 });
      scope.notify({ event: { type: 'realm', op: 'update', property: 'email_address_visibility', value: 3 }, users: [IDS.mark, IDS.mia] });
    });
    expect(await mia.replica.sync()).toBe('online');

    expect(mia.snapshots.count).toBe(1);
    expect(() => mia.replica.engine.queues.get(mia.queue.id, mia.userId)).toThrow();
    expect(await usersSeen(mia.api)).toEqual(await usersSeen(world.onHub('mia')));
    expect((await usersSeen(mia.api)).find((user) => user.user_id === IDS.mark)?.email).toBe(`user${IDS.mark}@zulip.test`);
    expect((await world.hubEngine.db.sync_changes.toArray()).map(({ kind, users }) => [kind, users])).toEqual([['realm', [IDS.mark, IDS.mia]]]);
  });
});
