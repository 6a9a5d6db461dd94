import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engine/engine.ts';
import { NO_CAPABILITIES } from '../../src/engine/events/event-types.ts';
import type { PullAnswer } from '../../src/sync/protocol.ts';
import { IDS } from '../support/test-realm.ts';
import { eventsOf, expectFeedKeptThroughArchive, expectNoResync, SyncWorld, syncedWorld, watch, watchedReplicas, watchedWorld, type TestReplica } from './sync-fixture.ts';

let world: SyncWorld;
afterEach(() => world?.close());

const PERSONAL_EVENTS = ['drafts', 'alert_words', 'muted_users', 'user_settings', 'update_display_settings', 'update_global_notifications'];

/** The hub's answer to a pull of the whole feed as the replica's user. */
async function pullAll(replica: TestReplica, query = ''): Promise<PullAnswer> {
  const { hub_id, epoch } = (await replica.replica.engine.db.sync_replica.get(1))!;
  const answer = await world.peerCall(replica.user, 'POST', `/pull${query}`, { hub_id, epoch, cursor: 0 });
  expect(answer.status).toBe(200);
  return answer.body as PullAnswer;
}

/** A user's own rows of the personal tables these tests change, and their settings, as an engine holds them. */
async function personalRows(engine: Engine, userId: number) {
  const { db } = engine;
  return {
    drafts: await db.drafts.where('user_id').equals(userId).toArray(),
    alert_words: await db.alert_words.where('user_id').equals(userId).toArray(),
    muted_users: await db.muted_users.where('user_id').equals(userId).toArray(),
    settings: (await db.users.get(userId))?.settings,
  };
}

describe('a user status', () => {
  it("set on the hub reaches another user's replica and its open queue as a hub client of that user hears it, without a resync", async () => {
    const { world: synced, watched } = await watchedWorld('mia');
    world = synced;
    const { mia } = watched;

    const set = await world.onHub('mark').post('/users/me/status', { status_text: 'In a meeting', emoji_name: 'calendar' });
    expect(set.status).toBe(200);
    expect(await mia.replica.sync()).toBe('online');

    expect(eventsOf(mia.queue, 'user_status')).toEqual(eventsOf(mia.hubQueue, 'user_status'));
    expect(eventsOf(mia.queue, 'user_status')).toEqual([
      { type: 'user_status', user_id: IDS.mark, status_text: 'In a meeting', emoji_name: 'calendar', emoji_code: '1f4c6', reaction_type: 'unicode_emoji' },
    ]);
    const local = await mia.api.get(`/users/${IDS.mark}/status`);
    expect(local).toEqual(await world.onHub('mia').get(`/users/${IDS.mark}/status`));
    expect(local.body.status).toEqual({ status_text: 'In a meeting', emoji_name: 'calendar', emoji_code: '1f4c6', reaction_type: 'unicode_emoji' });
    expect(await mia.replica.engine.db.user_status.toArray()).toEqual(await world.hubEngine.db.user_status.toArray());
    expectNoResync(mia);
  });

  it("forwarded from one replica reaches both replicas' queues as the hub's clients hear it; the other hears nothing of the setter's settings", async () => {
    const { world: synced, watched } = await watchedWorld('mark', 'mia');
    world = synced;
    const { mark, mia } = watched;

    // `away` also turns the setter's presence_enabled setting off: a personal setting, told to them alone.
    expect((await mark.api.post('/users/me/status', { status_text: 'Out to lunch', away: true })).status).toBe(200);
    expect(await mia.replica.sync()).toBe('online');

    const told = ['user_status', ...PERSONAL_EVENTS];
    for (const { queue, hubQueue } of [mark, mia]) expect(eventsOf(queue, ...told)).toEqual(eventsOf(hubQueue, ...told));
    expect(eventsOf(mark.queue, ...told).map((e) => [e.type, e.property ?? e.notification_name ?? null])).toEqual([
      ['user_settings', 'presence_enabled'],
      ['update_global_notifications', 'presence_enabled'],
      ['user_status', null],
    ]);
    expect(eventsOf(mia.queue, ...told)).toEqual([{ type: 'user_status', user_id: IDS.mark, away: true, status_text: 'Out to lunch' }]);
    expect((await mark.replica.engine.db.users.get(IDS.mark))?.settings.presence_enabled).toBe(false);
    expect((await mia.replica.engine.db.users.get(IDS.mark))?.settings).toEqual({});
    for (const replica of [mark, mia]) {
      expect(await replica.replica.engine.db.user_status.toArray()).toEqual(await world.hubEngine.db.user_status.toArray());
    }
    expectNoResync(mark, mia);
  });
});

describe("a user's personal rows", () => {
  it("changed through the user's replica come back to it as the hub's client hears them, reach no other replica, and a feed pulled again tells nothing", async () => {
    const { world: synced, watched } = await watchedWorld('mark', 'mia');
    world = synced;
    const { mark, mia } = watched;

    const draft = { type: 'stream', to: [IDS.general], topic: 'lunch', content: 'Pizza?', timestamp: 1_767_268_800 };
    expect((await mark.api.post('/drafts', { drafts: [draft] })).status).toBe(200);
    expect((await mark.api.post('/users/me/alert_words', { alert_words: ['deadline'] })).status).toBe(200);
    expect((await mark.api.post(`/users/me/muted_users/${IDS.gail}`)).status).toBe(200);
    expect((await mark.api.patch('/settings', { twenty_four_hour_time: true })).status).toBe(200);
    // A change made on the hub itself comes the same way.
    expect((await world.onHub('mark').delete('/users/me/alert_words', { alert_words: ['deadline'] })).status).toBe(200);
    expect(await mark.replica.sync()).toBe('online');
    expect(await mia.replica.sync()).toBe('online');

    expect(eventsOf(mark.queue, ...PERSONAL_EVENTS)).toEqual(eventsOf(mark.hubQueue, ...PERSONAL_EVENTS));
    expect(eventsOf(mark.queue, ...PERSONAL_EVENTS).map((e) => [e.type, e.property ?? e.setting_name ?? e.op ?? null])).toEqual([
      ['drafts', 'add'],
      ['alert_words', null],
      ['muted_users', null],
      ['user_settings', 'twenty_four_hour_time'],
      ['update_display_settings', 'twenty_four_hour_time'],
      ['alert_words', null],
    ]);
    const rows = await personalRows(world.hubEngine, IDS.mark);
    expect(await personalRows(mark.replica.engine, IDS.mark)).toEqual(rows);
    expect([rows.drafts.length, rows.alert_words.length, rows.muted_users.length, rows.settings?.twenty_four_hour_time]).toEqual([1, 0, 1, true]);
    expect((await mark.api.get('/drafts')).body.drafts).toEqual((await world.onHub('mark').get('/drafts')).body.drafts);

    // Mia's replica holds none of Mark's personal rows, and her pull names none of them.
    expect(await personalRows(mia.replica.engine, IDS.mark)).toEqual({ drafts: [], alert_words: [], muted_users: [], settings: {} });
    expect(eventsOf(mia.queue, ...PERSONAL_EVENTS)).toEqual([]);
    expect((await pullAll(mia)).tables).toBeUndefined();
    expectNoResync(mark, mia);

    // The whole feed pulled again changes nothing and tells nothing.
    const heard = mark.queue.events.length;
    await mark.replica.engine.db.sync_replica.update(1, { cursor: 0 });
    expect(await mark.replica.sync()).toBe('online');
    expect(mark.queue.events.length).toBe(heard);
    expect(await personalRows(mark.replica.engine, IDS.mark)).toEqual(rows);
    expectNoResync(mark, mia);
  });

  it("come in a pull only to their user, with only that user's share of the events, while a status comes to everyone", async () => {
    const { world: synced, replicas } = await syncedWorld('mark', 'mia');
    world = synced;
    const { mark, mia } = replicas;
    expect((await world.onHub('mark').post('/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'Note to self' }] })).status).toBe(200);
    expect((await world.onHub('mia').post('/users/me/status', { status_text: 'Reviewing' })).status).toBe(200);

    const [forMark, forMia] = [await pullAll(mark), await pullAll(mia)];
    const status = await world.hubEngine.db.user_status.toArray();
    expect(forMark.tables).toEqual({
      rows: { drafts: await world.hubEngine.db.drafts.toArray(), user_status: status },
      notices: [
        { event: expect.objectContaining({ type: 'drafts', op: 'add' }), users: [IDS.mark] },
        { event: { type: 'user_status', user_id: IDS.mia, status_text: 'Reviewing' }, users: [IDS.mark] },
      ],
    });
    expect(forMia.tables).toEqual({
      rows: { user_status: status },
      notices: [{ event: { type: 'user_status', user_id: IDS.mia, status_text: 'Reviewing' }, users: [IDS.mia] }],
    });
  });
});

describe('a replica of the version before table refreshes (its code left running in a tab across a hub upgrade)', () => {
  it('is told to resync where a newer one gets the rows, and gets none of them', async () => {
    const { world: synced, replicas } = await syncedWorld('mark');
    world = synced;
    const { mark } = replicas;
    expect((await world.onHub('mark').post('/users/me/alert_words', { alert_words: ['launch'] })).status).toBe(200);

    const current = await pullAll(mark);
    expect(current.realm_changed).toBe(false);
    expect(current.tables?.rows.alert_words).toEqual(await world.hubEngine.db.alert_words.toArray());
    // No version stated (as such a replica calls) and version 1 alike.
    for (const query of ['?', '?version=1']) {
      const old = await pullAll(mark, query);
      expect(old.realm_changed).toBe(true);
      expect(old.tables).toBeUndefined();
      expect(old.cursor).toBe(current.cursor);
    }
  });
});

describe("an administrator's linkifiers, code playgrounds and channel folders", () => {
  it("reach every replica's queue as the hub's clients hear them, without a resync", async () => {
    const { world: synced, replicas } = await syncedWorld('mark', 'gail');
    world = synced;
    // Clients that read linkifiers with URL templates (the others get no linkifier event).
    const templates = { capabilities: { ...NO_CAPABILITIES, linkifier_url_template: true } };
    const [mark, gail] = [watch(world, replicas.mark, templates), watch(world, replicas.gail, templates)];
    const olivia = world.onHub('olivia');

    const linkifier = { pattern: '#(?P<id>[0-9]+)', url_template: 'https://tracker.test/{id}' };
    expect((await olivia.post('/realm/filters', linkifier)).status).toBe(200);
    expect((await olivia.post('/realm/playgrounds', { name: 'Python', pygments_language: 'python', url_template: 'https://play.test/?c={code}' })).status).toBe(200);
    expect((await olivia.post('/channel_folders/create', { name: 'Projects', description: 'Ongoing work' })).status).toBe(200);
    for (const { replica } of [mark, gail]) expect(await replica.sync()).toBe('online');

    const told = ['realm_linkifiers', 'realm_playgrounds', 'channel_folder'];
    for (const { queue, hubQueue } of [mark, gail]) expect(eventsOf(queue, ...told)).toEqual(eventsOf(hubQueue, ...told));
    expect(eventsOf(gail.queue, ...told).map((e) => [e.type, e.op ?? null])).toEqual([
      ['realm_linkifiers', null],
      ['realm_playgrounds', null],
      ['channel_folder', 'add'],
    ]);
    for (const replica of [mark, gail]) {
      const { db } = replica.replica.engine;
      for (const table of ['linkifiers', 'realm_playgrounds', 'channel_folders'] as const) {
        expect(await db.table(table).toArray()).toEqual(await world.hubEngine.db.table(table).toArray());
      }
    }
    // The replica renders a message with the new linkifier, as the hub does.
    const preview = async (api: typeof olivia) => (await api.post('/messages/render', { content: 'See #42' })).body.rendered;
    expect(await preview(mark.api)).toBe(await preview(world.onHub('mark')));
    expect(await preview(mark.api)).toContain('https://tracker.test/42');
    expectNoResync(mark, gail);
  });
});

describe('a custom emoji deactivated on the hub', () => {
  it("reaches the replica's queue as the hub's client hears it, and the replica's emoji are the hub's", async () => {
    world = await SyncWorld.create();
    await world.hubEngine.db.realm_emoji.add({ id: 1, name: 'octo', source_url: 'https://emoji.test/octo.png', deactivated: false, author_id: IDS.olivia });
    const { mark } = await watchedReplicas(world, 'mark');

    expect((await world.onHub('olivia').delete('/realm/emoji/octo')).status).toBe(200);
    expect(await mark.replica.sync()).toBe('online');

    expect(eventsOf(mark.queue, 'realm_emoji')).toEqual(eventsOf(mark.hubQueue, 'realm_emoji'));
    expect(eventsOf(mark.queue, 'realm_emoji').map((e) => (e.realm_emoji as Record<string, { deactivated: boolean }>)['1']?.deactivated)).toEqual([true]);
    expect(await mark.replica.engine.db.realm_emoji.toArray()).toEqual(await world.hubEngine.db.realm_emoji.toArray());
    expectNoResync(mark);
  });
});

describe("the hub's change feed", () => {
  it('keeps its entries of personal and shared rows through an export and import of the realm', async () => {
    world = await SyncWorld.create();
    expect((await world.onHub('mark').post('/users/me/status', { status_text: 'Away', away: true })).status).toBe(200);
    expect((await world.onHub('mark').post('/users/me/alert_words', { alert_words: ['launch'] })).status).toBe(200);
    const feed = await world.hubEngine.db.sync_changes.toArray();
    expect(feed.map(({ kind, notices }) => [kind, notices?.map((notice) => notice.event.type)])).toEqual([
      ['tables', ['user_settings', 'update_global_notifications', 'user_status']],
      ['tables', ['alert_words']],
    ]);

    await expectFeedKeptThroughArchive(world, feed);
  });
});
