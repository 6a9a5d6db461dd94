import { expect, it } from 'vitest';
import { caseSuite, IDS } from './harness.ts';

const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });

export const subscriptionCases = caseSuite('subscribing and unsubscribing', (api) => {
  it('subscribes the caller and reports who was subscribed to what', async () => {
    const { status, body } = await api.as('mia').post('/users/me/subscriptions', { subscriptions: [{ name: 'design' }, { name: 'general' }] });
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '', subscribed: { [IDS.mia]: ['design'] }, already_subscribed: { [IDS.mia]: ['general'] } });
    expect((await api.as('mark').get(`/users/${IDS.mia}/subscriptions/${IDS.design}`)).body.is_subscribed).toBe(true);
  });

  it('refuses a private channel the caller cannot access', async () => {
    const { status, body } = await api.as('mia').post('/users/me/subscriptions', { subscriptions: [{ name: 'secret' }] });
    expect(status).toBe(400);
    expect(body).toEqual(error('Unable to access channel (secret).'));
  });

  it('changes personal settings of a subscription', async () => {
    const set = await api.as('mia').post('/users/me/subscriptions/properties', {
      subscription_data: [{ stream_id: IDS.design, property: 'in_home_view', value: false }],
    });
    expect(set.body).toEqual({ result: 'success', msg: '' });
    const { body } = await api.as('mia').get('/users/me/subscriptions');
    expect(body.subscriptions.find((s: { name: string }) => s.name === 'design')).toMatchObject({ is_muted: true, in_home_view: false });
  });

  it('unsubscribes, and refuses unknown channels and principals', async () => {
    const { body } = await api.as('mia').delete('/users/me/subscriptions', { subscriptions: ['design', 'strict'] });
    expect(body).toEqual({ result: 'success', msg: '', removed: ['design'], not_removed: ['strict'] });
    const unknown = await api.as('mia').delete('/users/me/subscriptions', { subscriptions: ['nowhere'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ ...error("Channel 'nowhere' does not exist", 'STREAM_DOES_NOT_EXIST'), stream: 'nowhere' });
    const ghost = await api.as('adam').delete('/users/me/subscriptions', { subscriptions: ['general'], principals: [999] });
    expect(ghost.status).toBe(400);
    expect(ghost.body).toEqual(error('No such user'));
  });

  it('refuses to let a member unsubscribe someone else', async () => {
    const { status, body } = await api.as('mia').delete('/users/me/subscriptions', { subscriptions: ['general'], principals: [IDS.mark] });
    expect(status).toBe(400);
    expect(body).toEqual(error('Insufficient permission'));
  });
});
