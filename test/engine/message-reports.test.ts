import { afterEach, describe, expect, it } from 'vitest';
import { createTestRealm, IDS, openQueue, TEST_SCENARIO, type TestRealm } from '../support/test-realm.ts';
import { expectRefused } from '../support/expect-refused.ts';

let realm: TestRealm;
afterEach(() => realm.engine.close());

const MODERATION = 6;
const NOTIFICATION_BOT = 1;
/** The test realm with a private "moderation" channel for the administrators, named as the realm's moderation request channel. */
const withModeration = (topicsPolicy: 'inherit' | 'empty_topic_only' = 'inherit') => ({
  ...TEST_SCENARIO,
  realm: { ...TEST_SCENARIO.realm, moderation_request_channel: 'moderation' },
  channels: [
    ...TEST_SCENARIO.channels,
    { name: 'moderation', invite_only: true, subscribers: ['olivia@zulip.test', 'adam@zulip.test'], topics_policy: topicsPolicy },
  ],
});
const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });
const report = (as: 'mark' | 'mia' | 'olivia', id: number, params: Record<string, unknown>) => realm.as(as).post(`/messages/${id}/report`, params);
/** The newest message of the moderation channel, as an administrator reads it. */
async function latestReport() {
  const { body } = await realm.as('olivia').get('/messages', {
    anchor: 'newest',
    num_before: 1,
    num_after: 0,
    narrow: [{ operator: 'channel', operand: MODERATION }],
    apply_markdown: false,
    allow_empty_topic_name: true,
  });
  return body.messages.at(-1) as Record<string, unknown>;
}

describe('POST /messages/{message_id}/report', () => {
  it('posts the report as the notification bot to the moderation channel, quoting the channel message', async () => {
    realm = await createTestRealm(withModeration());
    const olivia = openQueue(realm.engine, IDS.olivia);
    expect(await report('mark', 1, { report_type: 'spam', description: 'Not welcome' })).toEqual({ status: 200, body: { result: 'success', msg: '' } });
    expect(olivia.events.at(-1)).toMatchObject({ type: 'message', flags: [], message: { id: 5, sender_id: NOTIFICATION_BOT } });
    expect(await latestReport()).toMatchObject({
      sender_id: NOTIFICATION_BOT,
      stream_id: MODERATION,
      subject: 'Olivia Owner moderation',
      content: [
        '@_**Mark Member|11** reported a message sent by @_**Olivia Owner|8** at <time:2025-12-31T23:50:00+00:00>.',
        '```quote',
        '**Spam**. Not welcome',
        '```',
        '',
        '``` spoiler Original message at #**general>welcome@1**',
        'Welcome **everyone**',
        '```',
      ].join('\n'),
    });
  });

  it('names a direct message’s recipient when its sender reports it, and links the conversation', async () => {
    realm = await createTestRealm(withModeration());
    expect((await report('olivia', 4, { report_type: 'other', description: 'Sent by mistake' })).status).toBe(200);
    expect((await latestReport()).content).toBe(
      [
        '@_**Olivia Owner|8** reported a direct message sent by @_**Olivia Owner|8** to @_**Mark Member|11** at <time:2025-12-31T23:53:00+00:00>.',
        '```quote',
        '**Other reason**. Sent by mistake',
        '```',
        '',
        '``` spoiler [Original message](http://zulip.test/#narrow/dm/8,11/near/4)',
        'a direct hello',
        '```',
      ].join('\n'),
    );
  });

  it('uses the empty topic where the moderation channel allows only that', async () => {
    realm = await createTestRealm(withModeration('empty_topic_only'));
    expect((await report('mia', 2, { report_type: 'norms' })).status).toBe(200);
    expect(await latestReport()).toMatchObject({ subject: '' });
  });

  it('refuses an unknown type, an unexplained "other", an overlong description and a message the reporter cannot see', async () => {
    realm = await createTestRealm(withModeration());
    await expectRefused(realm, () => report('mark', 1, { report_type: 'rude' }), error('Invalid report_type'));
    await expectRefused(realm, () => report('mark', 1, { report_type: 'other' }), error('An explanation is required.'));
    await expectRefused(
      realm,
      () => report('mark', 1, { report_type: 'spam', description: 'x'.repeat(1001) }),
      error('description is too long (limit: 1000 characters)'),
    );
    await expectRefused(realm, () => report('mia', 3, { report_type: 'spam' }), error('Invalid message(s)'));
  });

  it('is refused while the organization has no moderation request channel', async () => {
    realm = await createTestRealm();
    await expectRefused(realm, () => report('mark', 1, { report_type: 'spam' }), error('Message reporting is not enabled in this organization.'));
    const registered = await realm.as('mark').post('/register', { fetch_event_types: ['realm'] });
    expect(registered.body.realm_moderation_request_channel_id).toBe(-1);
  });
});
