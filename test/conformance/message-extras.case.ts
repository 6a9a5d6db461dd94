import { expect, it } from 'vitest';
import { caseSuite, IDS } from './harness.ts';

const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });
const success = { result: 'success', msg: '' };

export const messageExtraCases = caseSuite('read receipts, group nesting, push devices, calls, reports and edit typing', (api) => {
  it('refuses read receipts while the organization has them disabled', async () => {
    const refused = await api.as('mark').get('/messages/1/read_receipts');
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual(error('Read receipts are disabled in this organization.'));
    expect((await api.as('mia').get('/messages/3/read_receipts')).body).toEqual(error('Invalid message(s)'));
  });

  it('nests user groups, answers membership through subgroups, and deactivates a group nobody uses', async () => {
    const create = async (name: string, params: Record<string, unknown> = {}) =>
      (await api.as('mark').post('/user_groups/create', { name, description: '', members: [IDS.mark], ...params })).body.group_id as number;
    const inner = await create('inner', { members: [IDS.mia] });
    const outer = await create('outer');
    expect((await api.as('mark').post(`/user_groups/${outer}/subgroups`, { add: [inner] })).body).toEqual(success);
    expect((await api.as('mia').get(`/user_groups/${outer}/subgroups`)).body).toEqual({ ...success, subgroups: [inner] });
    expect((await api.as('mia').get(`/user_groups/${outer}/members/${IDS.mia}`)).body).toEqual({ ...success, is_user_group_member: true });
    expect((await api.as('mia').get(`/user_groups/${outer}/members/${IDS.mia}`, { direct_member_only: true })).body.is_user_group_member).toBe(false);
    expect((await api.as('mark').post(`/user_groups/${inner}/subgroups`, { add: [outer] })).body).toEqual(
      error(`User group ${inner} is already a subgroup of one of the passed subgroups.`),
    );
    const inUse = await api.as('mark').post(`/user_groups/${inner}/deactivate`);
    expect(inUse.status).toBe(400);
    expect(inUse.body).toEqual({ ...error('Cannot deactivate user group in use.', 'CANNOT_DEACTIVATE_GROUP_IN_USE'), objections: [{ type: 'subgroup', supergroup_ids: [outer] }] });
    expect((await api.as('mark').post(`/user_groups/${outer}/deactivate`)).body).toEqual(success);
  });

  it('registers and removes push devices, answering a test notification for a known one', async () => {
    expect((await api.as('mark').post('/users/me/apns_device_token', { token: 'c0ffee00c0ffee00', appid: 'org.zulip.Zulip' })).body).toEqual(success);
    expect((await api.as('mark').post('/users/me/android_gcm_reg_id', { token: 'android-token' })).body).toEqual(success);
    expect((await api.as('mark').post('/mobile_push/test_notification', { token: 'android-token' })).body).toEqual(success);
    const unknown = await api.as('mia').post('/mobile_push/test_notification', { token: 'android-token' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual(error('Device not recognized', 'INVALID_PUSH_DEVICE_TOKEN'));
    expect((await api.as('mark').delete('/users/me/apns_device_token', { token: 'c0ffee00c0ffee00' })).body).toEqual(success);
    expect((await api.as('mark').delete('/users/me/android_gcm_reg_id', { token: 'gone' })).body).toEqual(error('Token does not exist'));
    expect((await api.as('mark').post('/users/me/apns_device_token', { token: 'abcde', appid: 'org.zulip.Zulip' })).body).toEqual(error('Invalid APNS token'));
  });

  it('creates a BigBlueButton call URL', async () => {
    const { status, body } = await api.as('mark').get('/calls/bigbluebutton/create', { meeting_name: 'design sync', voice_only: false });
    expect(status).toBe(200);
    expect(body).toEqual({ ...success, url: expect.stringMatching(/^\/calls\/bigbluebutton\/join\?bigbluebutton=[\w-]+:[\w-]+$/) });
  });

  it('refuses a message report without a moderation channel, and an unexplained "other" report', async () => {
    expect((await api.as('mark').post('/messages/1/report', { report_type: 'spam' })).body).toEqual(
      error('Message reporting is not enabled in this organization.'),
    );
    expect((await api.as('mark').post('/messages/1/report', { report_type: 'other' })).body).toEqual(error('An explanation is required.'));
  });

  it('announces typing in a message edit to the channel', async () => {
    const queueId = (await api.as('mia').post('/register', { fetch_event_types: [], event_types: ['typing_edit_message'] })).body.queue_id as string;
    const sent = await api.as('mark').post('/messages', { type: 'stream', to: IDS.general, topic: 'edits', content: 'draft' });
    expect((await api.as('mark').post(`/messages/${sent.body.id}/typing`, { op: 'start' })).body).toEqual(success);
    const { body } = await api.as('mia').get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
    expect(body.events).toEqual([
      {
        id: 0,
        type: 'typing_edit_message',
        op: 'start',
        sender_id: IDS.mark,
        message_id: sent.body.id,
        recipient: { type: 'channel', channel_id: IDS.general, topic: 'edits' },
      },
    ]);
    expect((await api.as('mia').post(`/messages/${sent.body.id}/typing`, { op: 'start' })).body).toEqual(error("You don't have permission to edit this message"));
  });

  it('sends a stream delete event with the full channel object when a channel becomes invisible', async () => {
    const queueId = (await api.as('mark').post('/register', { fetch_event_types: [], event_types: ['stream'] })).body.queue_id as string;
    expect((await api.as('mark').delete('/users/me/subscriptions', { subscriptions: ['secret'] })).status).toBe(200);
    const { body } = await api.as('mark').get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
    expect(body.events).toEqual([
      {
        id: 0,
        type: 'stream',
        op: 'delete',
        streams: [expect.objectContaining({ stream_id: IDS.secret, name: 'secret', invite_only: true })],
        stream_ids: [IDS.secret],
      },
    ]);
  });
});
