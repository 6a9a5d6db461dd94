import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestRealm, subscribe, IDS, TEST_SCENARIO, type TestRealm, type TestUser } from '../support/test-realm.ts';

/** The test realm plus two private channels of olivia's: `vault` shares history, `hush` does not. */
const SCENARIO = {
  ...TEST_SCENARIO,
  channels: [
    ...TEST_SCENARIO.channels,
    { name: 'vault', invite_only: true, history_public_to_subscribers: true, subscribers: ['olivia@zulip.test'] },
    { name: 'hush', invite_only: true, history_public_to_subscribers: false, subscribers: ['olivia@zulip.test'] },
  ],
};
const VAULT = 6;
const HUSH = 7;

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm(SCENARIO);
});
afterEach(() => realm.engine.close());

async function send(user: TestUser, channel: string, content: string): Promise<number> {
  const { body } = await realm.as(user).post('/messages', { type: 'channel', to: channel, topic: 't', content });
  return body.id;
}

/** Subscribes directly in storage (the subscription endpoints belong to another family). */
const subscribeTo = (userId: number, channelId: number) => subscribe(realm.engine, userId, channelId);

async function fetch(user: TestUser, narrow: unknown): Promise<Array<{ id: number; flags: string[] }>> {
  const { status, body } = await realm.as(user).get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow });
  expect(status).toBe(200);
  return body.messages.map((m: { id: number; flags: string[] }) => ({ id: m.id, flags: m.flags }));
}

const channel = (operand: string | number) => ({ operator: 'channel', operand });

describe('channel history in GET /messages', () => {
  it('shows a public channel its member never received, as read and historical', async () => {
    const id = await send('mark', 'design', 'before mia');
    expect(await fetch('mia', [channel('design')])).toEqual([{ id, flags: ['read', 'historical'] }]);
  });

  it('shows a late subscriber the public history before their own received messages', async () => {
    const early = await send('mark', 'design', 'before mia');
    await subscribeTo(IDS.mia, IDS.design);
    const late = await send('mark', 'design', 'after mia');
    expect(await fetch('mia', [channel('design')])).toEqual([
      { id: early, flags: ['read', 'historical'] },
      { id: late, flags: [] },
    ]);
  });

  it('leaves unreceived history out of narrows without a channel term', async () => {
    await send('mark', 'design', 'before mia');
    expect((await fetch('mia', [])).map((m) => m.id)).toEqual([1, 2]);
    expect((await fetch('mia', [{ operator: 'sender', operand: 'mark@zulip.test' }])).map((m) => m.id)).toEqual([2]);
  });

  it('turns history off for per-user is: terms, but not for is:resolved', async () => {
    await send('mark', 'design', 'before mia');
    expect(await fetch('mia', [channel('design'), { operator: 'is', operand: 'unread', negated: true }])).toEqual([]);
    const resolved = await realm.as('mark').post('/messages', { type: 'channel', to: 'design', topic: '✔ done', content: 'x' });
    expect((await fetch('mia', [channel('design'), { operator: 'is', operand: 'resolved' }])).map((m) => m.id)).toEqual([resolved.body.id]);
  });

  it('hides a private channel without shared history from before the user subscribed', async () => {
    const early = await send('olivia', 'hush', 'before mia');
    await subscribeTo(IDS.mia, HUSH);
    const late = await send('olivia', 'hush', 'after mia');
    expect(await fetch('mia', [channel('hush')])).toEqual([{ id: late, flags: [] }]);
    const single = await realm.as('mia').get(`/messages/${early}`);
    expect(single.status).toBe(400);
    expect(single.body.msg).toBe('Invalid message(s)');
  });

  it('shows a private channel with shared history to a late subscriber', async () => {
    const early = await send('olivia', 'vault', 'before mia');
    expect(await fetch('mia', [channel(VAULT)])).toEqual([]);
    await subscribeTo(IDS.mia, VAULT);
    expect(await fetch('mia', [channel(VAULT)])).toEqual([{ id: early, flags: ['read', 'historical'] }]);
    const single = await realm.as('mia').get(`/messages/${early}`);
    expect(single.body.message.flags).toEqual(['read', 'historical']);
  });

  it('keeps messages a user received after they unsubscribe from a private channel', async () => {
    await realm.engine.db.subscriptions.update([IDS.mark, IDS.secret], { active: 0 });
    expect(await fetch('mark', [channel('secret')])).toEqual([{ id: 3, flags: ['read'] }]);
  });

  it('does not show a guest public channels they are not subscribed to', async () => {
    const id = await send('mark', 'design', 'members only');
    expect(await fetch('gail', [channel('design')])).toEqual([]);
    expect((await fetch('gail', [{ operator: 'channels', operand: 'public' }])).map((m) => m.id)).toEqual([1, 2]);
    const single = await realm.as('gail').get(`/messages/${id}`);
    expect(single.body).toEqual({ result: 'error', msg: 'Invalid message(s)', code: 'BAD_REQUEST' });
  });

  it('shows a guest the history of a public channel they are subscribed to', async () => {
    const id = await send('mark', 'design', 'before gail');
    await subscribeTo(IDS.gail, IDS.design);
    expect(await fetch('gail', [channel('design')])).toEqual([{ id, flags: ['read', 'historical'] }]);
  });

  it('shows an administrator nothing of a private channel they are not subscribed to', async () => {
    expect(await fetch('adam', [channel('secret')])).toEqual([]);
    expect(await fetch('adam', [{ operator: 'channels', operand: 'public' }, { operator: 'id', operand: 3 }])).toEqual([]);
    const single = await realm.as('adam').get('/messages/3');
    expect(single.body.msg).toBe('Invalid message(s)');
  });

  it('returns history for message_ids only under a channel narrow', async () => {
    const id = await send('mark', 'design', 'before mia');
    const plain = await realm.as('mia').get('/messages', { message_ids: [id] });
    expect(plain.body.messages).toEqual([]);
    const narrowed = await realm.as('mia').get('/messages', { message_ids: [id], narrow: [channel('design')] });
    expect(narrowed.body.messages.map((m: { id: number }) => m.id)).toEqual([id]);
  });
});
