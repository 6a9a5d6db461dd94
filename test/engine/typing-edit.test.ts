import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestRealm, IDS, openQueue, type TestRealm } from '../support/test-realm.ts';
import { expectRefused } from '../support/expect-refused.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const error = (msg: string) => ({ result: 'error', msg, code: 'BAD_REQUEST' });
const GENERAL_SUBSCRIBERS = [IDS.olivia, IDS.adam, IDS.mona, IDS.mark, IDS.mia, IDS.gail, IDS.bot];

async function send(params: Record<string, unknown>): Promise<number> {
  const { body } = await realm.as('mark').post('/messages', params);
  expect(body.result).toBe('success');
  return body.id as number;
}
const typing = (id: number, op: string, as: 'mark' | 'mia' = 'mark') => realm.as(as).post(`/messages/${id}/typing`, { op });

describe('POST /messages/{message_id}/typing', () => {
  it('tells every subscriber of the channel that the sender is editing a channel message', async () => {
    const id = await send({ type: 'stream', to: IDS.general, topic: 'plans', content: 'draft' });
    const queues = GENERAL_SUBSCRIBERS.map((userId) => [userId, openQueue(realm.engine, userId)] as const);
    expect(await typing(id, 'start')).toEqual({ status: 200, body: { result: 'success', msg: '' } });
    for (const [, queue] of queues) {
      expect(queue.events).toEqual([
        {
          id: 0,
          type: 'typing_edit_message',
          op: 'start',
          sender_id: IDS.mark,
          message_id: id,
          recipient: { type: 'channel', channel_id: IDS.general, topic: 'plans' },
        },
      ]);
    }
  });

  it('tells a direct conversation’s participants, listing those who get typing notifications', async () => {
    const id = await send({ type: 'direct', to: [IDS.mia], content: 'draft' });
    expect((await realm.as('mia').patch('/settings', { receives_typing_notifications: false })).status).toBe(200);
    const mark = openQueue(realm.engine, IDS.mark);
    const mia = openQueue(realm.engine, IDS.mia);
    expect((await typing(id, 'stop')).status).toBe(200);
    expect(mark.events).toEqual([
      { id: 0, type: 'typing_edit_message', op: 'stop', sender_id: IDS.mark, message_id: id, recipient: { type: 'direct', user_ids: [IDS.mark] } },
    ]);
    expect(mia.events).toEqual([]);
  });

  it('is refused for a message the caller may not edit, past the edit limit, or with channel typing turned off', async () => {
    const id = await send({ type: 'stream', to: IDS.general, topic: 'plans', content: 'draft' });
    await expectRefused(realm, () => typing(id, 'start', 'mia'), error("You don't have permission to edit this message"));
    await expectRefused(realm, () => typing(3, 'start', 'mia'), error('Invalid message(s)'));
    await expectRefused(realm, () => typing(id, 'begin'), error('Invalid op'));
    expect((await realm.as('mark').patch('/settings', { send_stream_typing_notifications: false })).status).toBe(200);
    await expectRefused(realm, () => typing(id, 'start'), error('User has disabled typing notifications for channel messages'));
    // Upstream's 20 s grace applies to saving an edit, not to announcing one.
    realm.clock.advance(601_000);
    await expectRefused(realm, () => typing(id, 'start'), error('The time limit for editing this message has passed'));
  });
});
