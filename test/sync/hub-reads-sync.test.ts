import { afterEach, describe, expect, it } from 'vitest';
import { HUB_UNREACHABLE, PROVISIONAL_ID_BASE } from '../../src/sync/protocol.ts';
import { IDS } from '../support/test-realm.ts';
import { Caller, SyncWorld, syncedReplicas, userRow } from './sync-fixture.ts';

let world: SyncWorld;
afterEach(() => world?.close());

/** A hub whose realm shows read receipts, with replicas of `users` through their first round. */
async function roomWithReadReceipts<U extends 'olivia' | 'mark' | 'mia'>(...users: U[]) {
  world = await SyncWorld.create();
  await world.hubEngine.db.realm.update(1, { enable_read_receipts: true });
  return syncedReplicas(world, ...users);
}

describe('reads only the hub can answer, on a replica', () => {
  it("answer who read a message from the hub's rows, which the replica does not hold", async () => {
    const { mark, mia } = await roomWithReadReceipts('mark', 'mia');
    const sent = await world.onHub('olivia').post('/messages', { type: 'stream', to: 'general', topic: 'welcome', content: 'read me' });
    expect((await world.onHub('mia').post('/messages/flags', { messages: [sent.body.id], op: 'add', flag: 'read' })).status).toBe(200);
    expect(await mark.replica.sync()).toBe('online');
    expect((await mark.api.post('/messages/flags', { messages: [sent.body.id], op: 'add', flag: 'read' })).status).toBe(200);
    expect(await mark.replica.sync()).toBe('online');
    expect(await mia.replica.sync()).toBe('online');
    const path = `/messages/${sent.body.id}/read_receipts`;
    const onHub = await world.onHub('mark').get(path);
    expect(onHub.body.user_ids).toEqual([IDS.mark, IDS.mia]);
    for (const replica of [mark, mia]) expect(await replica.api.get(path)).toEqual(onHub);
  });

  it("give an administrator's replica the hub's invitations, a channel's email address and the sandbox's mail", async () => {
    world = await SyncWorld.create();
    expect((await world.onHub('olivia').post('/invites', { invitee_emails: 'new@zulip.test', stream_ids: [IDS.general] })).status).toBe(200);
    const { olivia } = await syncedReplicas(world, 'olivia');
    for (const path of ['/invites', `/streams/${IDS.general}/email_address`, '/sandbox/outgoing_mail', '/export/realm']) {
      const onHub = await world.onHub('olivia').get(path);
      expect([path, onHub.status]).toEqual([path, 200]);
      expect(await olivia.api.get(path)).toEqual(onHub);
    }
    expect((await olivia.api.get('/invites')).body.invites).toHaveLength(1);
  });

  it("pass on the API's refusal of the user, and refuse another user's credentials on the replica", async () => {
    world = await SyncWorld.create();
    const { mark } = await syncedReplicas(world, 'mark');
    const onHub = await world.onHub('mark').get('/export/realm');
    expect(onHub.status).toBeGreaterThanOrEqual(400);
    expect(await mark.api.get('/export/realm')).toEqual(onHub);
    const mia = userRow('mia');
    const asMia = new Caller((request) => mark.replica.handle(request), mia.email, mia.api_key);
    expect((await asMia.get(`/streams/${IDS.general}/email_address`)).status).toBe(401);
  });

  it('are refused with the hub unreachable, and the replica reports itself offline; a provisional message (read by no one else yet) is answered here', async () => {
    const { mark } = await roomWithReadReceipts('mark');
    mark.link.cut = true;
    const refused = await mark.api.get(`/streams/${IDS.general}/email_address`);
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ result: 'error', code: HUB_UNREACHABLE });
    expect(await mark.replica.status()).toBe('offline');

    const sent = await mark.api.post('/messages', { type: 'stream', to: 'general', topic: 'welcome', content: 'not on the hub yet' });
    expect(sent.body.id).toBeGreaterThanOrEqual(PROVISIONAL_ID_BASE);
    expect(await mark.api.get(`/messages/${sent.body.id}/read_receipts`)).toEqual({ status: 200, body: { result: 'success', msg: '', user_ids: [] } });
  });
});

describe("the hub's relayed reads", () => {
  it('run only the listed reads, with few short parameters, for a caller of this hub and epoch', async () => {
    world = await SyncWorld.create();
    const { mark } = await syncedReplicas(world, 'mark');
    const { hub_id, epoch } = (await mark.replica.engine.db.sync_replica.get(1))!;
    const read = (body: Record<string, unknown>, user: 'mark' | null = 'mark') => world.peerCall(user, 'POST', '/read', { hub_id, epoch, params: {}, ...body });
    expect(await read({ path: `streams/${IDS.general}/email_address` })).toMatchObject({ status: 200, body: { result: 'success' } });
    expect(await read({ path: 'users/me' })).toMatchObject({ status: 400, body: { result: 'error', code: 'BAD_REQUEST' } });
    expect(await read({ path: '../users/me' })).toMatchObject({ status: 400 });
    const many = Object.fromEntries(Array.from({ length: 9 }, (_, n) => [`p${n}`, 'x']));
    expect(await read({ path: 'invites', params: many })).toMatchObject({ status: 400 });
    expect(await read({ path: 'invites', epoch: 'another' })).toMatchObject({ status: 409, body: { code: 'SYNC_RESYNC_NEEDED' } });
    expect(await read({ path: 'invites' }, null)).toMatchObject({ status: 401 });
  });
});

describe("the hub's messages read again (POST /sync/v1/messages)", () => {
  it('answer the ids as a pull bundles them, the ones out of sight as deleted, and refuse a malformed ask', async () => {
    world = await SyncWorld.create();
    const { mia } = await syncedReplicas(world, 'mia');
    const { hub_id, epoch } = (await mia.replica.engine.db.sync_replica.get(1))!;
    const read = (body: Record<string, unknown>, user: 'mia' | null = 'mia') => world.peerCall(user, 'POST', '/messages', { hub_id, epoch, ...body });
    // 1: general, received; 3: secret, out of Mia's sight; 999: no such message.
    const answer = await read({ ids: [1, 3, 999, 1] });
    expect(answer.status).toBe(200);
    expect(answer.body.messages.map((bundle: { message: { id: number }; user_message: { user_id: number } }) => [bundle.message.id, bundle.user_message.user_id])).toEqual([[1, IDS.mia]]);
    expect(answer.body.deleted).toEqual([3, 999]);
    expect(await read({ ids: [] })).toMatchObject({ status: 400, body: { result: 'error', code: 'BAD_REQUEST' } });
    expect(await read({ ids: Array.from({ length: 1001 }, (_, n) => n + 1) })).toMatchObject({ status: 400 });
    expect(await read({ ids: ['1'] })).toMatchObject({ status: 400 });
    expect(await read({ ids: [1], epoch: 'another' })).toMatchObject({ status: 409, body: { code: 'SYNC_RESYNC_NEEDED' } });
    expect(await read({ ids: [1] }, null)).toMatchObject({ status: 401 });
  });
});
