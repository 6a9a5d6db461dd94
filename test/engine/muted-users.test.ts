import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestRealm, IDS, openQueue, type TestRealm } from '../support/test-realm.ts';
import { expectRefused } from '../support/expect-refused.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const NOW = Date.UTC(2026, 0, 1, 12) / 1000;
const error = (msg: string) => ({ result: 'error', msg, code: 'BAD_REQUEST' });
const success = { result: 'success', msg: '' };
const mute = (id: number) => realm.as('mia').post(`/users/me/muted_users/${id}`);
const unmute = (id: number) => realm.as('mia').delete(`/users/me/muted_users/${id}`);
const flagsOf = async (id: number): Promise<string[]> => (await realm.as('mia').get(`/messages/${id}`)).body.message.flags;
const send = async (to: 'general' | number): Promise<number> =>
  (await realm.as('mark').post('/messages', typeof to === 'number' ? { type: 'direct', to: [to], content: 'hi' } : { type: 'stream', to, topic: 't', content: 'hi' })).body.id;

describe('POST /users/me/muted_users/{muted_user_id}', () => {
  it("mutes the user, marks their unread messages read and sends the muter's whole list", async () => {
    const unreadChannel = await send('general');
    const unreadDirect = await send(IDS.mia);
    const fromOlivia = (await realm.as('olivia').post('/messages', { type: 'stream', to: 'general', topic: 't', content: 'still unread' })).body.id;
    const mia = openQueue(realm.engine, IDS.mia);
    const mark = openQueue(realm.engine, IDS.mark);
    expect(await mute(IDS.mark)).toEqual({ status: 200, body: success });
    expect(mia.events).toEqual([
      { id: 0, type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [unreadChannel, unreadDirect], all: false },
      { id: 1, type: 'muted_users', muted_users: [{ id: IDS.mark, timestamp: NOW }] },
    ]);
    expect(mark.events).toEqual([]);
    expect(await flagsOf(unreadChannel)).toEqual(['read']);
    expect(await flagsOf(fromOlivia)).toEqual([]);
  });

  it('sends no flags event when nothing from the muted user was unread', async () => {
    const mia = openQueue(realm.engine, IDS.mia);
    await mute(IDS.olivia);
    await mute(IDS.bot);
    expect(mia.events).toEqual([
      { id: 0, type: 'muted_users', muted_users: [{ id: IDS.olivia, timestamp: NOW }] },
      { id: 1, type: 'muted_users', muted_users: [{ id: IDS.olivia, timestamp: NOW }, { id: IDS.bot, timestamp: NOW }] },
    ]);
  });

  it("makes the muted user's new messages arrive read for the muter only", async () => {
    await mute(IDS.mark);
    const olivia = openQueue(realm.engine, IDS.olivia);
    const mia = openQueue(realm.engine, IDS.mia);
    const id = await send('general');
    expect(mia.events).toEqual([expect.objectContaining({ type: 'message', flags: ['read'] })]);
    expect(olivia.events).toEqual([expect.objectContaining({ type: 'message', flags: [] })]);
    await unmute(IDS.mark);
    expect(await flagsOf(id)).toEqual(['read']);
    expect(await flagsOf(await send('general'))).toEqual([]);
  });

  it('refuses muting oneself, an unknown user, a system bot and a user already muted', async () => {
    await mute(IDS.mark);
    await expectRefused(realm, () => mute(IDS.mia), error('Cannot mute self'));
    await expectRefused(realm, () => mute(999), error('No such user'));
    await expectRefused(realm, () => mute(1), error('No such user'));
    await expectRefused(realm, () => mute(IDS.mark), error('User already muted'));
    await expectRefused(realm, () => realm.as('mia').post('/users/me/muted_users/mark'), error('Invalid muted_user_id'));
  });
});

describe('DELETE /users/me/muted_users/{muted_user_id}', () => {
  it('unmutes the user and sends the remaining list', async () => {
    await mute(IDS.mark);
    const mia = openQueue(realm.engine, IDS.mia);
    expect(await unmute(IDS.mark)).toEqual({ status: 200, body: success });
    expect(mia.events).toEqual([{ id: 0, type: 'muted_users', muted_users: [] }]);
  });

  it('refuses an unknown user and a user not muted', async () => {
    await expectRefused(realm, () => unmute(999), error('No such user'));
    await expectRefused(realm, () => unmute(IDS.mark), error('User is not muted'));
  });
});

describe('the muted_users register section', () => {
  it('lists whom the caller muted, with when', async () => {
    await mute(IDS.mark);
    realm.clock.advance(60_000);
    await mute(IDS.gail);
    const { body } = await realm.as('mia').post('/register', { fetch_event_types: ['muted_users'] });
    expect(body.muted_users).toEqual([{ id: IDS.mark, timestamp: NOW }, { id: IDS.gail, timestamp: NOW + 60 }]);
    expect((await realm.as('mark').post('/register', { fetch_event_types: ['muted_users'] })).body.muted_users).toEqual([]);
  });
});
