import { afterEach, describe, expect, it } from 'vitest';
import { IDS } from '../support/test-realm.ts';
import { SyncWorld } from './sync-fixture.ts';

let world: SyncWorld;
afterEach(() => world?.close());

describe('subscription changes on replicas', () => {
  it('made on both sides during a partition reach the hub and come back to both replicas', async () => {
    world = await SyncWorld.create();
    const mark = await world.replicaOf('mark');
    const mia = await world.replicaOf('mia');
    await mark.replica.sync();
    await mia.replica.sync();
    mark.link.cut = true;
    mia.link.cut = true;

    expect((await mark.api.delete('/users/me/subscriptions', { subscriptions: ['design'] })).status).toBe(200);
    const properties = await mark.api.post('/users/me/subscriptions/properties', {
      subscription_data: [
        { stream_id: IDS.general, property: 'is_muted', value: true },
        { stream_id: IDS.general, property: 'color', value: '#a47462' },
      ],
    });
    expect(properties.status).toBe(200);
    expect((await mia.api.post('/users/me/subscriptions', { subscriptions: [{ name: 'design' }] })).status).toBe(200);
    // Its last round reached the hub; the two changes since wait for the next.
    expect(await mark.replica.status()).toBe('pending:2');

    mark.link.cut = false;
    mia.link.cut = false;
    for (const replica of [mark, mia, mark, mia]) expect(await replica.replica.sync()).toBe('online');

    const hub = world.hubEngine.db;
    expect((await hub.subscriptions.get([IDS.mark, IDS.design]))?.active).toBe(0);
    expect(await hub.subscriptions.get([IDS.mark, IDS.general])).toMatchObject({ is_muted: true, color: '#a47462' });
    expect((await hub.subscriptions.get([IDS.mia, IDS.design]))?.active).toBe(1);
    for (const { api, user } of [mark, mia]) {
      const local = await api.get('/users/me/subscriptions', { include_subscribers: true });
      const onHub = await world.onHub(user).get('/users/me/subscriptions', { include_subscribers: true });
      expect(local.body.subscriptions).toEqual(onHub.body.subscriptions);
    }
  });
});
