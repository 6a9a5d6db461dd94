import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectRefused } from '../support/expect-refused.ts';
import { createTestRealm, IDS, type TestRealm } from '../support/test-realm.ts';

let realm: TestRealm;
let now: number;
beforeEach(async () => {
  realm = await createTestRealm();
  now = Math.floor(realm.clock.now() / 1000);
});
afterEach(() => realm.engine.close());

const error = (msg: string) => ({ result: 'error', msg, code: 'BAD_REQUEST' });
/** `count` ids, all the same: a valid list but for its length. */
const ids = (count: number, id: number = IDS.mark) => Array.from({ length: count }, () => id);
const tooLong = (name: string, limit: number) => error(`${name} is too long (limit: ${limit} items)`);
const terms = (count: number) => Array.from({ length: count }, () => ({ operator: 'channel', operand: 'general' }));

describe('list parameters', () => {
  it.each([
    ['POST', '/messages/flags', () => ({ messages: ids(5001, 1), op: 'add', flag: 'starred' }), tooLong('messages', 5000)],
    ['GET', '/messages', () => ({ message_ids: ids(5001, 1) }), error('Too many messages requested (maximum 5000).')],
    ['GET', '/messages/matches_narrow', () => ({ msg_ids: ids(5001, 1), narrow: [] }), tooLong('msg_ids', 5000)],
    ['GET', '/messages', () => ({ anchor: 'newest', num_before: 10, num_after: 0, narrow: terms(101) }), tooLong('narrow', 100)],
    ['POST', '/messages/flags/narrow', () => ({ anchor: 'newest', num_before: 10, num_after: 0, narrow: terms(101), op: 'add', flag: 'read' }), tooLong('narrow', 100)],
    ['GET', '/messages', () => ({ anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'dm', operand: ids(1001) }] }), tooLong('operand', 1000)],
    ['POST', '/register', () => ({ narrow: Array.from({ length: 101 }, () => ['channel', 'general']) }), tooLong('narrow', 100)],
    ['POST', '/messages', () => ({ type: 'direct', to: ids(1001), content: 'hi' }), tooLong('to', 1000)],
    ['POST', '/scheduled_messages', () => ({ type: 'direct', to: ids(1001), content: 'hi', scheduled_delivery_timestamp: now + 3600 }), tooLong('to', 1000)],
    ['POST', '/typing', () => ({ op: 'start', to: ids(1001) }), tooLong('to', 1000)],
    ['POST', '/users/me/subscriptions', () => ({ subscriptions: Array.from({ length: 1001 }, () => ({ name: 'general' })) }), tooLong('subscriptions', 1000)],
    ['POST', '/users/me/subscriptions', () => ({ subscriptions: [{ name: 'general' }], principals: ids(1001) }), tooLong('principals', 1000)],
    ['DELETE', '/users/me/subscriptions', () => ({ subscriptions: Array.from({ length: 1001 }, () => 'general') }), tooLong('subscriptions', 1000)],
    ['POST', '/user_groups/create', () => ({ name: 'big', description: '', members: ids(1001) }), tooLong('members', 1000)],
    [
      'POST',
      '/user_groups/create',
      () => ({ name: 'big', description: '', members: [], can_manage_group: { direct_members: ids(1001), direct_subgroups: [] } }),
      tooLong('can_manage_group["direct_members"]', 1000),
    ],
    ['POST', '/invites', () => ({ invitee_emails: 'new@example.com', stream_ids: ids(1001, IDS.general) }), tooLong('stream_ids', 1000)],
    [
      'POST',
      '/invites',
      () => ({ invitee_emails: Array.from({ length: 1001 }, (_, i) => `new${i}@example.com`).join(','), stream_ids: [] }),
      tooLong('invitee_emails', 1000),
    ],
    ['GET', '/messages', () => ({ anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'dm', operand: Array(1001).fill('mark@zulip.test').join(',') }] }), tooLong('operand', 1000)],
    ['DELETE', '/users/me/profile_data', () => ({ data: ids(1001, 1) }), tooLong('data', 1000)],
  ] as const)('%s %s refuses a list past its bound before any database work', async (method, path, params, expected) => {
    await expectRefused(realm, () => realm.as('mark').request(method, path, params()), expected);
  });

  it('takes a list at its bound', async () => {
    const { body } = await realm.as('mark').post('/messages/flags', { messages: ids(5000, 1), op: 'add', flag: 'starred' });
    expect(body).toEqual({ result: 'success', msg: '', messages: [1] });
  });
});
