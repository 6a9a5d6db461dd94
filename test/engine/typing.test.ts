import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ClientCapabilities, NO_CAPABILITIES } from '../../src/engine/events/event-types.ts';
import { createTestRealm, IDS, openQueue, type TestRealm, type TestUser } from '../support/test-realm.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });
const MARK = { user_id: IDS.mark, email: 'mark@zulip.test' };
const MIA = { user_id: IDS.mia, email: 'mia@zulip.test' };
const queue = (userId: number, capabilities: Partial<ClientCapabilities> = {}) =>
  openQueue(realm.engine, userId, { capabilities: { ...NO_CAPABILITIES, ...capabilities } });
const withStreamTyping = (userId: number) => queue(userId, { stream_typing_notifications: true });
async function changeSettings(user: TestUser, settings: Record<string, unknown>): Promise<void> {
  expect((await realm.as(user).patch('/settings', settings)).body).toEqual({ result: 'success', msg: '' });
}

describe('POST /typing for direct messages', () => {
  it('tells every participant, the typist included, with the recipient list', async () => {
    const mark = queue(IDS.mark);
    const mia = queue(IDS.mia);
    const olivia = queue(IDS.olivia);
    const { status, body } = await realm.as('mark').post('/typing', { op: 'start', to: [IDS.mia] });
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '' });
    const event = { type: 'typing', op: 'start', message_type: 'direct', sender: MARK, recipients: [MIA, MARK] };
    expect(mia.events).toEqual([{ id: 0, ...event }]);
    expect(mark.events).toEqual([{ id: 0, ...event }]);
    expect(olivia.events).toEqual([]);
  });

  it('sends stop the same way', async () => {
    const mia = queue(IDS.mia);
    await realm.as('mark').post('/typing', { type: 'direct', op: 'stop', to: [IDS.mia, IDS.olivia] });
    expect(mia.events).toEqual([
      {
        id: 0,
        type: 'typing',
        op: 'stop',
        message_type: 'direct',
        sender: MARK,
        recipients: [MIA, { user_id: IDS.olivia, email: 'olivia@zulip.test' }, MARK],
      },
    ]);
  });

  it('shows dummy addresses to viewers who may not see real emails, and their own real one', async () => {
    // No endpoint changes realm settings yet.
    await realm.engine.db.realm.update(1, { email_address_visibility: 3 });
    const mia = queue(IDS.mia);
    await realm.as('mark').post('/typing', { op: 'start', to: [IDS.mia] });
    expect(mia.events[0]).toMatchObject({
      sender: { user_id: IDS.mark, email: `user${IDS.mark}@zulip.test` },
      recipients: [
        { user_id: IDS.mia, email: 'mia@zulip.test' },
        { user_id: IDS.mark, email: `user${IDS.mark}@zulip.test` },
      ],
    });
  });

  it('skips recipients who turned typing notifications off', async () => {
    await changeSettings('mia', { receives_typing_notifications: false });
    const mia = queue(IDS.mia);
    const mark = queue(IDS.mark);
    await realm.as('mark').post('/typing', { op: 'start', to: [IDS.mia] });
    expect(mia.events).toEqual([]);
    expect(mark.events).toHaveLength(1);
  });

  it('refuses a typist who turned direct typing notifications off', async () => {
    await changeSettings('mark', { send_private_typing_notifications: false });
    const mia = queue(IDS.mia);
    const { body } = await realm.as('mark').post('/typing', { op: 'start', to: [IDS.mia] });
    expect(body).toEqual(error('User has disabled typing notifications for direct messages'));
    expect(mia.events).toEqual([]);
  });

  it('refuses a missing, empty or invalid recipient list, telling nobody', async () => {
    const mia = queue(IDS.mia);
    expect((await realm.as('mark').post('/typing', { op: 'start' })).body).toEqual(error("Missing 'to' argument"));
    expect((await realm.as('mark').post('/typing', { op: 'start', to: [] })).body).toEqual(error("Empty 'to' list"));
    expect((await realm.as('mark').post('/typing', { op: 'start', to: [IDS.mia, 999] })).body).toEqual(error('Invalid user ID 999'));
    expect(mia.events).toEqual([]);
  });

  it('validates op and type', async () => {
    const missing = await realm.as('mark').post('/typing', { to: [IDS.mia] });
    expect(missing.body).toEqual({ ...error("Missing 'op' argument", 'REQUEST_VARIABLE_MISSING'), var_name: 'op' });
    expect((await realm.as('mark').post('/typing', { op: 'typing', to: [IDS.mia] })).body).toEqual(error('Invalid op'));
    expect((await realm.as('mark').post('/typing', { op: 'start', type: 'private', to: [IDS.mia] })).body).toEqual(error('Invalid type'));
  });
});

describe('POST /typing in a channel', () => {
  it("tells the channel's subscribers whose clients handle channel typing", async () => {
    const mia = withStreamTyping(IDS.mia);
    const miaOld = queue(IDS.mia);
    const mark = withStreamTyping(IDS.mark);
    const design = withStreamTyping(IDS.adam);
    const { status, body } = await realm.as('mark').post('/typing', { type: 'stream', op: 'start', stream_id: IDS.general, topic: 'welcome' });
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '' });
    const event = { type: 'typing', op: 'start', message_type: 'stream', stream_id: IDS.general, topic: 'welcome', sender: MARK };
    expect(mia.events).toEqual([{ id: 0, ...event }]);
    expect(mark.events).toEqual([{ id: 0, ...event }]);
    expect(design.events).toEqual([{ id: 0, ...event }]);
    expect(miaOld.events).toEqual([]);
  });

  it('reaches only subscribers of the channel', async () => {
    const mia = withStreamTyping(IDS.mia);
    const olivia = withStreamTyping(IDS.olivia);
    await realm.as('mark').post('/typing', { type: 'channel', op: 'stop', stream_id: IDS.design, topic: 'ideas' });
    expect(mia.events).toEqual([]);
    expect(olivia.events).toEqual([
      { id: 0, type: 'typing', op: 'stop', message_type: 'stream', stream_id: IDS.design, topic: 'ideas', sender: MARK },
    ]);
  });

  it('names the empty topic by its display name for clients without empty_topic_name', async () => {
    const legacy = withStreamTyping(IDS.mia);
    const modern = queue(IDS.mia, { stream_typing_notifications: true, empty_topic_name: true });
    await realm.as('mark').post('/typing', { type: 'stream', op: 'start', stream_id: IDS.general, topic: '' });
    expect(legacy.events[0].topic).toBe('general chat');
    expect(modern.events[0].topic).toBe('');
  });

  it.each([
    ['no channel id', { topic: 'x' }, 'Missing channel ID'],
    ['no topic', { stream_id: 1 }, 'Missing topic'],
    ['an unknown channel', { stream_id: 99, topic: 'x' }, 'Invalid channel ID'],
  ])('refuses %s', async (_case, params, msg) => {
    const olivia = withStreamTyping(IDS.olivia);
    expect((await realm.as('mark').post('/typing', { type: 'stream', op: 'start', ...params })).body).toEqual(error(msg));
    expect(olivia.events).toEqual([]);
  });

  it('refuses a private channel the typist cannot see', async () => {
    const mark = withStreamTyping(IDS.mark);
    const { body } = await realm.as('mia').post('/typing', { type: 'stream', op: 'start', stream_id: IDS.secret, topic: 'plans' });
    expect(body).toEqual(error('Invalid channel ID'));
    expect(mark.events).toEqual([]);
  });

  it('refuses a channel the typist may not post in', async () => {
    const olivia = withStreamTyping(IDS.olivia);
    const { body } = await realm.as('mark').post('/typing', { type: 'stream', op: 'start', stream_id: IDS.announce, topic: 'news' });
    expect(body).toEqual(error('You do not have permission to post in this channel.'));
    expect(olivia.events).toEqual([]);
  });

  it('refuses a typist who turned channel typing notifications off', async () => {
    await changeSettings('mark', { send_stream_typing_notifications: false });
    const { body } = await realm.as('mark').post('/typing', { type: 'stream', op: 'start', stream_id: IDS.general, topic: 'x' });
    expect(body).toEqual(error('User has disabled typing notifications for channel messages'));
  });
});
