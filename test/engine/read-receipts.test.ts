import { afterEach, describe, expect, it } from 'vitest';
import { createTestRealm, IDS, openQueue, TEST_SCENARIO, type TestRealm } from '../support/test-realm.ts';
import { expectRefused } from '../support/expect-refused.ts';

let realm: TestRealm;
afterEach(() => realm.engine.close());

const withReceipts = (enabled: boolean) => ({ ...TEST_SCENARIO, realm: { ...TEST_SCENARIO.realm, enable_read_receipts: enabled } });
/** Olivia's welcome in #general, which the scenario marks read for everyone. */
const WELCOME = 1;
const SECRET_PLANS = 3;
const receipts = (id: number, as: 'mark' | 'mia' | 'olivia' = 'mark') => realm.as(as).get(`/messages/${id}/read_receipts`);

describe('GET /messages/{message_id}/read_receipts', () => {
  it('lists everyone who read the message except its sender, the caller included', async () => {
    realm = await createTestRealm(withReceipts(true));
    expect(await receipts(WELCOME)).toEqual({
      status: 200,
      body: { result: 'success', msg: '', user_ids: [IDS.adam, IDS.mona, IDS.mark, IDS.mia, IDS.gail, IDS.bot] },
    });
  });

  it('leaves out who marked it unread, turned read receipts off, was deactivated, or mutes or is muted by the caller', async () => {
    realm = await createTestRealm(withReceipts(true));
    expect((await realm.as('adam').post('/messages/flags', { messages: [WELCOME], op: 'remove', flag: 'read' })).status).toBe(200);
    expect((await realm.as('mia').patch('/settings', { send_read_receipts: false })).status).toBe(200);
    expect((await realm.as('olivia').delete(`/users/${IDS.gail}`)).status).toBe(200);
    expect((await realm.as('mona').post(`/users/me/muted_users/${IDS.mark}`)).status).toBe(200);
    expect((await realm.as('mark').post(`/users/me/muted_users/${IDS.bot}`)).status).toBe(200);
    expect((await receipts(WELCOME)).body.user_ids).toEqual([IDS.mark]);
    expect((await receipts(WELCOME, 'olivia')).body.user_ids).toEqual([IDS.mona, IDS.mark, IDS.bot]);
  });

  it('is refused while the organization has read receipts disabled', async () => {
    realm = await createTestRealm(withReceipts(false));
    await expectRefused(realm, () => receipts(WELCOME), {
      result: 'error',
      msg: 'Read receipts are disabled in this organization.',
      code: 'BAD_REQUEST',
    });
  });

  it('is refused for a message the caller cannot see, before the realm setting is consulted', async () => {
    realm = await createTestRealm(withReceipts(false));
    const invalid = { result: 'error', msg: 'Invalid message(s)', code: 'BAD_REQUEST' };
    await expectRefused(realm, () => receipts(SECRET_PLANS, 'mia'), invalid);
    await expectRefused(realm, () => receipts(9999), invalid);
  });

  it('is reported in the register realm settings', async () => {
    realm = await createTestRealm(withReceipts(true));
    const registered = await realm.as('mark').post('/register', { fetch_event_types: ['realm'] });
    expect(registered.body.realm_enable_read_receipts).toBe(true);
  });

  it('is turned on and off by an administrator with PATCH /realm, told to everyone as upstream tells it', async () => {
    realm = await createTestRealm(withReceipts(false));
    const watcher = openQueue(realm.engine, IDS.mark);
    expect((await realm.as('adam').patch('/realm', { enable_read_receipts: true })).body).toEqual({ result: 'success', msg: '', enable_read_receipts: true });
    expect(watcher.events).toEqual([{ id: 0, type: 'realm', op: 'update', property: 'enable_read_receipts', value: true }]);
    expect((await receipts(WELCOME)).status).toBe(200);
    expect((await realm.as('mark').post('/register', { fetch_event_types: ['realm'] })).body.realm_enable_read_receipts).toBe(true);

    expect((await realm.as('adam').patch('/realm', { enable_read_receipts: false })).body).toEqual({ result: 'success', msg: '', enable_read_receipts: false });
    expect((await receipts(WELCOME)).status).toBe(400);
  });

  it('refuses a value that is not a boolean, with nothing changed', async () => {
    realm = await createTestRealm(withReceipts(false));
    await expectRefused(realm, () => realm.as('adam').patch('/realm', { enable_read_receipts: 'maybe' }), {
      result: 'error',
      msg: expect.stringContaining('enable_read_receipts'),
      code: 'BAD_REQUEST',
    });
    expect((await receipts(WELCOME)).status).toBe(400);
  });

  it('cannot be turned on by a member: refused, nothing changed', async () => {
    realm = await createTestRealm(withReceipts(false));
    await expectRefused(realm, () => realm.as('mark').patch('/realm', { enable_read_receipts: true }), {
      result: 'error',
      msg: 'Must be an organization administrator',
      code: 'UNAUTHORIZED_PRINCIPAL',
    });
    expect((await receipts(WELCOME)).status).toBe(400);
  });
});
