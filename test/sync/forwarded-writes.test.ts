import { Dexie } from 'dexie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RealmDirectory } from '../../src/engine/directory/realm-directory.ts';
import { PROVISIONAL_ID_BASE } from '../../src/sync/protocol.ts';
import { IDS } from '../support/test-realm.ts';
import { SyncWorld, type TestReplica } from './sync-fixture.ts';

let world: SyncWorld;
afterEach(() => world?.close());

async function syncedPair(): Promise<{ mark: TestReplica; mia: TestReplica }> {
  world = await SyncWorld.create();
  const mark = await world.replicaOf('mark');
  const mia = await world.replicaOf('mia');
  expect(await mark.replica.sync()).toBe('online');
  expect(await mia.replica.sync()).toBe('online');
  return { mark, mia };
}

const NEW_CHANNEL = { subscriptions: [{ name: 'offsite', description: 'Planning the offsite' }] };

/** The replica's and the hub's drafts of `user`, as its clients read them. */
async function draftsOf(replica: TestReplica) {
  return { local: (await replica.api.get('/drafts')).body.drafts, hub: (await world.onHub(replica.user).get('/drafts')).body.drafts };
}

describe('a write only the hub can do, made on a replica while the hub is reachable', () => {
  it('creates a channel on the hub: the client gets the hub\'s answer, the replica holds the hub\'s channel, the other replica sees it after a sync', async () => {
    const { mark, mia } = await syncedPair();
    const created = await mark.api.post('/users/me/subscriptions', NEW_CHANNEL);
    expect(created).toEqual({
      status: 200,
      body: { result: 'success', msg: '', subscribed: { [IDS.mark]: ['offsite'] }, already_subscribed: {} },
    });
    const onHub = await world.hubEngine.db.channels.filter((c) => c.name === 'offsite').toArray();
    expect(onHub.map((c) => c.description)).toEqual(['Planning the offsite']);
    expect((await mark.api.get('/get_stream_id', { stream: 'offsite' })).body.stream_id).toBe(onHub[0]!.id);
    expect((await mark.api.get('/users/me/subscriptions')).body.subscriptions.map((s: { name: string }) => s.name)).toContain('offsite');
    // Never run locally, never queued: the hub did it once.
    expect(await mark.replica.engine.db.sync_outbox.count()).toBe(0);
    expect(await mark.replica.status()).toBe('online');

    expect(await mia.replica.sync()).toBe('online');
    expect((await mia.api.get('/get_stream_id', { stream: 'offsite' })).body.stream_id).toBe(onHub[0]!.id);
  });

  it('creates on the hub a channel whose name a page took away from the channel the replica chose to join locally, and no channel locally', async () => {
    const { mark } = await syncedPair();
    // The replica chooses with the directory as it was before the page that renames design.
    const before = await RealmDirectory.load(mark.replica.engine.db);
    expect((await world.onHub('adam').patch(`/streams/${IDS.design}`, { new_name: 'drafting' })).status).toBe(200);
    expect(await mark.replica.sync()).toBe('online');
    const load = RealmDirectory.load.bind(RealmDirectory);
    vi.spyOn(RealmDirectory, 'load').mockImplementation((db) => (Dexie.currentTransaction ? load(db) : Promise.resolve(before)));
    const joined = await mark.api.post('/users/me/subscriptions', { subscriptions: [{ name: 'design' }] });
    vi.restoreAllMocks();

    expect(joined).toEqual({ status: 200, body: { result: 'success', msg: '', subscribed: { [IDS.mark]: ['design'] }, already_subscribed: {} } });
    const created = (await world.hubEngine.db.channels.where('name_key').equals('design').first())!;
    expect(created.id).not.toBe(IDS.design);
    expect((await mark.api.get('/get_stream_id', { stream: 'design' })).body.stream_id).toBe(created.id);
    expect((await mark.replica.engine.db.channels.toArray()).map((c) => c.id).sort()).toEqual((await mark.api.get('/streams')).body.streams.map((c: { stream_id: number }) => c.stream_id).sort());
    expect(await mark.replica.engine.db.sync_outbox.count()).toBe(0);
  });

  it('moves a message received in a channel the replica no longer sees as the hub judges it, instead of failing locally', async () => {
    const { mark } = await syncedPair();
    const olivia = world.onHub('olivia');
    expect((await olivia.post('/users/me/subscriptions', { subscriptions: [{ name: 'design' }], principals: [IDS.mark] })).status).toBe(200);
    const sent = await olivia.post('/messages', { type: 'stream', to: 'design', topic: 'sketches', content: 'for Mark' });
    expect((await olivia.patch(`/streams/${IDS.design}`, { is_private: true, history_public_to_subscribers: false })).status).toBe(200);
    expect((await olivia.delete('/users/me/subscriptions', { subscriptions: ['design'], principals: [IDS.mark] })).status).toBe(200);
    expect(await mark.replica.sync()).toBe('online');
    // What Mark received stays his to read; the channel is out of his sight.
    expect(await mark.replica.engine.db.channels.get(IDS.design)).toBeUndefined();
    expect((await mark.api.get(`/messages/${sent.body.id}`)).status).toBe(200);

    // The hub may let him move it (he received it): only the hub, which knows the channel, can tell.
    const moved = await mark.api.patch(`/messages/${sent.body.id}`, { topic: 'elsewhere', propagate_mode: 'change_all' });
    expect(moved).toEqual({ status: 200, body: { result: 'success', msg: '', detached_uploads: [] } });
    expect((await world.hubEngine.db.messages.get(sent.body.id))?.topic).toBe('elsewhere');
    expect((await mark.replica.engine.db.messages.get(sent.body.id))?.topic).toBe('elsewhere');
    expect(await mark.replica.engine.db.sync_outbox.count()).toBe(0);
  });

  it('saves a draft with the hub\'s id and the replica\'s drafts are the hub\'s', async () => {
    const { mark } = await syncedPair();
    const draft = { type: 'stream', to: [IDS.general], topic: 'lunch', content: 'Pizza?', timestamp: 1_767_268_800 };
    const saved = await mark.api.post('/drafts', { drafts: [draft] });
    expect(saved.status).toBe(200);
    const hubIds = (await world.hubEngine.db.drafts.toArray()).map((d) => d.id);
    expect(saved.body).toEqual({ result: 'success', msg: '', ids: hubIds });
    const { local, hub } = await draftsOf(mark);
    expect(local).toEqual(hub);
    expect(local).toEqual([{ id: hubIds[0], ...draft }]);
  });

  it('changes a personal setting and a status: the replica holds them at once, another replica after a sync', async () => {
    const { mark, mia } = await syncedPair();
    expect(await mark.api.patch('/settings', { twenty_four_hour_time: true })).toEqual({ status: 200, body: { result: 'success', msg: '' } });
    expect((await world.hubEngine.db.users.get(IDS.mark))?.settings.twenty_four_hour_time).toBe(true);
    expect((await mark.replica.engine.db.users.get(IDS.mark))?.settings.twenty_four_hour_time).toBe(true);

    expect((await mark.api.post('/users/me/status', { status_text: 'At the offsite' })).status).toBe(200);
    expect((await mark.api.get(`/users/${IDS.mark}/status`)).body.status).toEqual({ status_text: 'At the offsite' });
    expect(await mia.replica.sync()).toBe('online');
    expect((await mia.api.get(`/users/${IDS.mark}/status`)).body.status).toEqual({ status_text: 'At the offsite' });
  });

  it('answers with the hub\'s whole answer, the parameters it ignored included', async () => {
    const { mark } = await syncedPair();
    const forwarded = await mark.api.patch('/settings', { twenty_four_hour_time: true, favourite_colour: 'teal' });
    expect(forwarded).toEqual({ status: 200, body: { result: 'success', msg: '', ignored_parameters_unsupported: ['favourite_colour'] } });
    expect(await world.onHub('mark').patch('/settings', { twenty_four_hour_time: true, favourite_colour: 'teal' })).toEqual(forwarded);
  });

  it('gives a member the hub\'s own refusal of an administrator\'s action, and nothing changes anywhere', async () => {
    const { mark } = await syncedPair();
    const channelBefore = await world.hubEngine.db.channels.get(IDS.general);
    const localBefore = await mark.replica.engine.db.channels.get(IDS.general);
    const refused = await mark.api.patch(`/streams/${IDS.general}`, { description: 'Taken over' });
    const direct = await world.onHub('mark').patch(`/streams/${IDS.general}`, { description: 'Taken over' });
    expect(direct.status).toBe(400);
    expect(refused).toEqual(direct);
    expect(await world.hubEngine.db.channels.get(IDS.general)).toEqual(channelBefore);
    expect(await mark.replica.engine.db.channels.get(IDS.general)).toEqual(localBefore);
    // The client heard the refusal itself: it is no change of the outbox's to report later.
    expect(await mark.replica.refusals()).toEqual([]);
    expect(await mark.replica.engine.db.sync_outbox.count()).toBe(0);
  });

  it('runs an administrator\'s action on the hub, and a member\'s replica sees it after a sync', async () => {
    const { mark } = await syncedPair();
    const olivia = await world.replicaOf('olivia');
    expect(await olivia.replica.sync()).toBe('online');
    const changed = await olivia.api.patch(`/streams/${IDS.general}`, { description: 'Everything else' });
    expect(changed).toEqual({ status: 200, body: { result: 'success', msg: '' } });
    expect((await world.hubEngine.db.channels.get(IDS.general))?.description).toBe('Everything else');
    expect((await olivia.api.get(`/streams/${IDS.general}`)).body.stream.description).toBe('Everything else');
    expect(await mark.replica.sync()).toBe('online');
    expect((await mark.api.get(`/streams/${IDS.general}`)).body.stream.description).toBe('Everything else');
  });

  it('applies it exactly once when the hub\'s answer to the push is lost', async () => {
    const { mark } = await syncedPair();
    let pushes = 0;
    mark.link.beforeHub = async (path) => {
      if (path.endsWith('/push')) mark.link.loseAnswers = ++pushes === 1;
    };
    const created = await mark.api.post('/users/me/subscriptions', NEW_CHANNEL);
    expect(created.body).toEqual({ result: 'success', msg: '', subscribed: { [IDS.mark]: ['offsite'] }, already_subscribed: {} });
    expect(pushes).toBe(2);
    // The retry got the recorded result: the same answer twice, the channel made once.
    const [first, second] = mark.link.pushResults;
    expect(second).toEqual(first);
    expect(await world.hubEngine.db.channels.filter((c) => c.name === 'offsite').count()).toBe(1);
    expect((await mark.api.get('/get_stream_id', { stream: 'offsite' })).status).toBe(200);
  });

  it('is pushed after the changes queued before it, so it may name a message sent offline', async () => {
    const { mark } = await syncedPair();
    mark.link.cut = true;
    const sent = await mark.api.post('/messages', { type: 'stream', to: 'general', topic: 'offline', content: 'collapse me' });
    expect(sent.body.id).toBe(PROVISIONAL_ID_BASE);
    mark.link.cut = false;

    const collapsed = await mark.api.post('/messages/flags', { messages: [sent.body.id], op: 'add', flag: 'collapsed' });
    expect(collapsed).toEqual({ status: 200, body: { result: 'success', msg: '', messages: [5] } });
    expect(mark.link.pushResults.map((r) => [r.mutation_id, r.outcome])).toEqual([[1, 'applied'], [2, 'applied']]);
    const flagsOf = async (api: typeof mark.api) =>
      (await api.get('/messages', { anchor: 5, num_before: 0, num_after: 0 })).body.messages.map((m: { id: number; flags: string[] }) => [m.id, m.flags]);
    expect(await flagsOf(world.onHub('mark'))).toEqual([[5, ['collapsed']]]);
    expect(await flagsOf(mark.api)).toEqual([[5, ['collapsed']]]);
    expect(await mark.replica.status()).toBe('online');
  });
});

describe('a write only the hub can do, made on a replica that cannot reach the hub', () => {
  it('is refused as needing the hub, and nothing changes on the replica or later on the hub', async () => {
    const { mark } = await syncedPair();
    mark.link.cut = true;
    const before = await draftsOf(mark);
    const refused = await mark.api.post('/drafts', { drafts: [{ type: 'stream', to: [IDS.general], topic: 'lunch', content: 'Pizza?' }] });
    expect(refused).toEqual({
      status: 503,
      body: { result: 'error', msg: 'This action needs the hub (http://hub.test:9991), which cannot be reached right now', code: 'SYNC_HUB_UNREACHABLE' },
    });
    expect(await mark.replica.status()).toBe('offline');
    expect(await mark.replica.engine.db.sync_outbox.count()).toBe(0);

    mark.link.cut = false;
    expect(await mark.replica.sync()).toBe('online');
    expect(await draftsOf(mark)).toEqual(before);
  });

  it('whose answers are all lost, is told the hub cannot be reached; the hub ran it once, and the next sync brings it', async () => {
    const { mark } = await syncedPair();
    mark.link.loseAnswers = true;
    const draft = { type: 'stream', to: [IDS.general], topic: 'lunch', content: 'Pizza?', timestamp: 1_767_268_800 };
    expect((await mark.api.post('/drafts', { drafts: [draft] })).status).toBe(503);
    // Offered twice with one mutation id, run once.
    expect(mark.link.pushResults.map((r) => [r.mutation_id, r.outcome])).toEqual([[1, 'applied'], [1, 'applied']]);
    expect(await world.hubEngine.db.drafts.count()).toBe(1);

    mark.link.loseAnswers = false;
    expect(await mark.replica.sync()).toBe('online');
    const { local, hub } = await draftsOf(mark);
    expect(local).toEqual(hub);
    expect(local).toHaveLength(1);
    expect(mark.link.pushResults).toHaveLength(2);
  });

  it('refuses a request with a file other than an upload at once, even online: only POST /user_uploads carries a file to the hub', async () => {
    const { mark } = await syncedPair();
    const callsBefore = mark.link.calls.length;
    const form = new FormData();
    form.append('file', new Blob(['not really a png'], { type: 'image/png' }), 'tick.png');
    const row = { email: 'mark@zulip.test', api_key: 'MarkKey0000000000000000000000004' };
    const response = await mark.replica.handle(
      new Request('http://local.test/api/v1/realm/emoji/green_tick', {
        method: 'POST',
        headers: { Authorization: `Basic ${btoa(`${row.email}:${row.api_key}`)}` },
        body: form,
      }),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ result: 'error', msg: 'A synced replica takes a file only as an upload (POST /user_uploads)', code: 'SYNC_UNSUPPORTED_ACTION' });
    expect(mark.link.calls).toHaveLength(callsBefore);
    expect(await world.hubEngine.db.realm_emoji.filter((emoji) => emoji.name === 'green_tick').count()).toBe(0);
    expect(mark.link.pushResults).toEqual([]);
    expect(await mark.replica.status()).toBe('online');
  });
});
