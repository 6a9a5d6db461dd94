import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestRealm, IDS, openQueue, type TestRealm, type TestUser } from '../support/test-realm.ts';
import { expectRefused } from '../support/expect-refused.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });
const setProperties = (user: Parameters<TestRealm['as']>[0], subscriptionData: unknown) =>
  realm.as(user).post('/users/me/subscriptions/properties', { subscription_data: subscriptionData });
/** The user's subscription as GET /users/me/subscriptions shows it. */
const row = async (user: TestUser, channelId: number) =>
  (await realm.as(user).get('/users/me/subscriptions')).body.subscriptions.find((s: { stream_id: number }) => s.stream_id === channelId);
const update = (streamId: number, property: string, value: unknown, id: number) => ({ id, type: 'subscription', op: 'update', stream_id: streamId, property, value });

const expectRefusal = (subscriptionData: unknown, body: Record<string, unknown>, user: TestUser = 'mark') =>
  expectRefused(realm, () => setProperties(user, subscriptionData), body);

describe('POST /users/me/subscriptions/properties', () => {
  it('changes each property asked for and sends one update event per change', async () => {
    const mark = openQueue(realm.engine, IDS.mark);
    const { status, body } = await setProperties('mark', [
      { stream_id: IDS.design, property: 'pin_to_top', value: true },
      { stream_id: IDS.design, property: 'color', value: '#f00f00' },
      { stream_id: IDS.general, property: 'desktop_notifications', value: true },
      { stream_id: IDS.general, property: 'audible_notifications', value: false },
      { stream_id: IDS.general, property: 'push_notifications', value: true },
      { stream_id: IDS.general, property: 'email_notifications', value: false },
      { stream_id: IDS.general, property: 'wildcard_mentions_notify', value: false },
    ]);
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '' });
    expect(await row('mark', IDS.design)).toMatchObject({ pin_to_top: true, color: '#f00f00' });
    expect(await row('mark', IDS.general)).toMatchObject({
      desktop_notifications: true,
      audible_notifications: false,
      push_notifications: true,
      email_notifications: false,
      wildcard_mentions_notify: false,
    });
    expect(mark.events).toEqual([
      update(IDS.design, 'pin_to_top', true, 0),
      update(IDS.design, 'color', '#f00f00', 1),
      update(IDS.general, 'desktop_notifications', true, 2),
      update(IDS.general, 'audible_notifications', false, 3),
      update(IDS.general, 'push_notifications', true, 4),
      update(IDS.general, 'email_notifications', false, 5),
      update(IDS.general, 'wildcard_mentions_notify', false, 6),
    ]);
  });

  it('mutes with is_muted and sends two events, in_home_view first', async () => {
    const mark = openQueue(realm.engine, IDS.mark);
    await setProperties('mark', [{ stream_id: IDS.design, property: 'is_muted', value: true }]);
    expect(await row('mark', IDS.design)).toMatchObject({ is_muted: true, in_home_view: false });
    expect(mark.events).toEqual([update(IDS.design, 'in_home_view', false, 0), update(IDS.design, 'is_muted', true, 1)]);
  });

  it('reads the legacy in_home_view as the inverse of is_muted, with the same two events', async () => {
    const mark = openQueue(realm.engine, IDS.mark);
    await setProperties('mark', [{ stream_id: IDS.design, property: 'in_home_view', value: false }]);
    expect(await row('mark', IDS.design)).toMatchObject({ is_muted: true });
    await setProperties('mark', [{ stream_id: IDS.design, property: 'in_home_view', value: true }]);
    expect(await row('mark', IDS.design)).toMatchObject({ is_muted: false });
    expect(mark.events).toEqual([
      update(IDS.design, 'in_home_view', false, 0),
      update(IDS.design, 'is_muted', true, 1),
      update(IDS.design, 'in_home_view', true, 2),
      update(IDS.design, 'is_muted', false, 3),
    ]);
  });

  it('tells only the user\u2019s own queues', async () => {
    const olivia = openQueue(realm.engine, IDS.olivia);
    expect((await setProperties('mark', [{ stream_id: IDS.general, property: 'pin_to_top', value: true }])).body).toEqual({ result: 'success', msg: '' });
    expect(olivia.events).toEqual([]);
    expect((await row('mark', IDS.general)).pin_to_top).toBe(true);
    expect((await row('olivia', IDS.general)).pin_to_top).toBe(false);
  });

  it('accepts three- and six-digit hex colors and refuses anything else', async () => {
    await setProperties('mark', [{ stream_id: IDS.design, property: 'color', value: '#ABC' }]);
    expect(await row('mark', IDS.design)).toMatchObject({ color: '#ABC' });
    await expectRefusal([{ stream_id: IDS.design, property: 'color', value: 'red' }], error('color is not a valid hex color code'));
    await expectRefusal([{ stream_id: IDS.design, property: 'color', value: '#1234567' }], error('color is not a valid hex color code'));
  });

  it('refuses a non-boolean for a boolean property and an unknown property', async () => {
    await expectRefusal([{ stream_id: IDS.design, property: 'pin_to_top', value: 'yes' }], error('pin_to_top is not a boolean'));
    await expectRefusal([{ stream_id: IDS.design, property: 'is_pinned', value: true }], error('Unknown subscription property: is_pinned'));
  });

  it('refuses channels the user is not in, or cannot see, or that do not exist', async () => {
    await realm.as('mark').delete('/users/me/subscriptions', { subscriptions: ['design'] });
    await expectRefusal([{ stream_id: IDS.design, property: 'pin_to_top', value: true }], error(`Not subscribed to channel ID ${IDS.design}`));
    await expectRefusal([{ stream_id: IDS.secret, property: 'pin_to_top', value: true }], error('Invalid channel ID'), 'mia');
    await expectRefusal([{ stream_id: 99, property: 'pin_to_top', value: true }], error('Invalid channel ID'));
    await realm.as('olivia').delete(`/streams/${IDS.strict}`);
    await expectRefusal([{ stream_id: IDS.strict, property: 'pin_to_top', value: true }], error('Invalid channel ID'));
  });

  it('changes nothing when any change of the request is refused', async () => {
    await expectRefusal(
      [
        { stream_id: IDS.general, property: 'pin_to_top', value: true },
        { stream_id: 99, property: 'pin_to_top', value: true },
      ],
      error('Invalid channel ID'),
    );
  });

  it('checks the shape of subscription_data', async () => {
    await expectRefusal({ stream_id: IDS.general }, error('subscription_data is not a list'));
    await expectRefusal([{ stream_id: IDS.general, property: 'pin_to_top' }], error('subscription_data[0]["value"] is missing'));
    await expectRefusal([{ stream_id: 'general', property: 'pin_to_top', value: true }], error('subscription_data[0]["stream_id"] is not an integer'));
    await expectRefusal([{ stream_id: IDS.general, property: 'pin_to_top', value: true, extra: 1 }], error('Argument "extra" at subscription_data[0] is unexpected'));
    await expectRefused(realm, () => realm.as('mark').post('/users/me/subscriptions/properties', {}), {
      ...error("Missing 'subscription_data' argument", 'REQUEST_VARIABLE_MISSING'),
      var_name: 'subscription_data',
    });
  });
});
