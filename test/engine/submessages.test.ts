import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectRefused } from '../support/expect-refused.ts';
import { createTestRealm, IDS, openQueue, type TestRealm, type TestUser } from '../support/test-realm.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

/** Mark's reply in #general › welcome: a plain message. */
const MARKS_THANKS = 2;
const SECRET_PLANS = 3;
const error = (msg: string) => ({ result: 'error', msg, code: 'BAD_REQUEST' });

async function send(user: TestUser, content: string, to = 'general'): Promise<number> {
  const { status, body } = await realm.as(user).post('/messages', { type: 'channel', to, topic: 'widgets', content });
  expect(status).toBe(200);
  return body.id as number;
}
async function submessagesOf(id: number, viewer: TestUser = 'mark') {
  return (await realm.as(viewer).get(`/messages/${id}`)).body.message.submessages as Record<string, unknown>[];
}
const post = (user: TestUser, messageId: number, content: unknown, msgType = 'widget') =>
  realm.as(user).post('/submessage', { message_id: messageId, msg_type: msgType, content: typeof content === 'string' ? content : JSON.stringify(content) });

describe('a message starting with /poll or /todo', () => {
  it('carries its widget as its first submessage, in the message event and when fetched', async () => {
    const mia = openQueue(realm.engine, IDS.mia);
    const id = await send('mark', '/poll Lunch where?\nPizza\n- Sushi\n  * Tacos \n\n');
    const widget = {
      msg_type: 'widget',
      content: JSON.stringify({ widget_type: 'poll', extra_data: { question: 'Lunch where?', options: ['Pizza', 'Sushi', 'Tacos'] } }),
      message_id: id,
      sender_id: IDS.mark,
      id: expect.any(Number),
    };
    expect(await submessagesOf(id, 'mia')).toEqual([widget]);
    expect(mia.events.find((event) => event.type === 'message')?.message).toMatchObject({ id, submessages: [widget] });
  });

  it('reads a to-do list: its title, then one task per line, a description after ": "', async () => {
    const id = await send('mark', '/todo Launch\n- Ship it: on Friday\nCelebrate\n');
    const [widget] = await submessagesOf(id);
    expect(JSON.parse(widget.content as string)).toEqual({
      widget_type: 'todo',
      extra_data: { task_list_title: 'Launch', tasks: [{ task: 'Ship it', desc: 'on Friday' }, { task: 'Celebrate', desc: '' }] },
    });
  });

  it('is an ordinary message when the command is not alone at its start', async () => {
    for (const content of ['/polls are open', 'a /poll here', '/me runs a poll']) expect(await submessagesOf(await send('mark', content))).toEqual([]);
  });

  it('cannot have its text edited (its state is in its submessages), but can be moved', async () => {
    const id = await send('mark', '/poll Lunch?\nPizza');
    await expectRefused(realm, () => realm.as('mark').patch(`/messages/${id}`, { content: '/poll Dinner?\nPizza' }), error('Widgets cannot be edited.'));
    expect((await realm.as('mark').patch(`/messages/${id}`, { topic: 'lunch' })).status).toBe(200);
    expect(await submessagesOf(id)).toHaveLength(1);
  });
});

describe('POST /submessage', () => {
  it('adds a vote to a poll and tells everyone who can see the message, with the submessage’s id', async () => {
    const id = await send('mark', '/poll Lunch?\nPizza\nSushi');
    const watchers = { olivia: openQueue(realm.engine, IDS.olivia), gail: openQueue(realm.engine, IDS.gail) };
    const vote = JSON.stringify({ type: 'vote', key: 'canned,1', vote: 1 });
    expect((await post('mia', id, vote)).body).toEqual({ result: 'success', msg: '' });

    const [widget, added] = await submessagesOf(id);
    expect(added).toEqual({ msg_type: 'widget', content: vote, message_id: id, sender_id: IDS.mia, id: (widget.id as number) + 1 });
    const event = { id: 0, type: 'submessage', msg_type: 'widget', message_id: id, submessage_id: added.id, sender_id: IDS.mia, content: vote };
    expect(watchers.olivia.events).toEqual([event]);
    expect(watchers.gail.events).toEqual([event]);
  });

  it('takes a new option, and the author’s new question; a to-do list’s tasks, strikes and title', async () => {
    const poll = await send('mark', '/poll Lunch?');
    expect((await post('mia', poll, { type: 'new_option', idx: 1, option: 'Noodles' })).status).toBe(200);
    expect((await post('mark', poll, { type: 'question', question: 'Dinner?' })).status).toBe(200);
    const todo = await send('mark', '/todo Launch');
    expect((await post('mia', todo, { type: 'new_task', key: 0, task: 'Ship', desc: '', completed: false })).status).toBe(200);
    expect((await post('mia', todo, { type: 'strike', key: `0,${IDS.mia}` })).status).toBe(200);
    expect((await post('mark', todo, { type: 'new_task_list_title', title: 'Launch day' })).status).toBe(200);
    expect((await submessagesOf(poll)).map((submessage) => JSON.parse(submessage.content as string).type)).toEqual([undefined, 'new_option', 'question']);
    expect(await submessagesOf(todo)).toHaveLength(4);
  });

  it('lets the sender of a plain message start its submessages, and then anyone who sees it add to them', async () => {
    await expectRefused(realm, () => post('mia', MARKS_THANKS, { anything: 1 }, 'custom'), error('You cannot attach a submessage to this message.'));
    expect((await post('mark', MARKS_THANKS, { anything: 1 }, 'custom')).status).toBe(200);
    expect((await post('mia', MARKS_THANKS, { anything: 2 }, 'custom')).status).toBe(200);
    expect((await submessagesOf(MARKS_THANKS)).map((submessage) => [submessage.sender_id, submessage.msg_type])).toEqual([
      [IDS.mark, 'custom'],
      [IDS.mia, 'custom'],
    ]);
  });

  it('refuses data its widget does not take, with upstream’s words, and changes nothing', async () => {
    const poll = await send('mark', '/poll Lunch?\nPizza');
    const todo = await send('mark', '/todo Launch');
    const refusals: [number, unknown, string][] = [
      [poll, 'not json', 'Invalid json for submessage'],
      [poll, [1], 'poll data is not a dict'],
      [poll, { key: 'canned,0', vote: 1 }, 'poll data key is missing: type'],
      [poll, { type: 'vote', key: 'canned,0', vote: 2 }, 'Invalid poll data["vote"]'],
      [poll, { type: 'vote', key: 7, vote: 1 }, 'poll data["key"] is not a string'],
      [poll, { type: 'vote', key: 'canned,0', vote: 1, extra: true }, 'Unexpected arguments: extra'],
      [poll, { type: 'new_option', idx: 1001, option: 'x' }, 'poll data["idx"] is not in the right range'],
      [poll, { type: 'question', question: 'Mine now?' }, "You can't edit a question unless you are the author."],
      [poll, { type: 'close' }, 'Unknown type for poll data: close'],
      [todo, { type: 'new_task', key: 0, task: 'x', desc: '' }, 'todo data key is missing: completed'],
      [todo, { type: 'new_task_list_title', title: 'Mine' }, "You can't edit the task list title unless you are the author."],
      [todo, { type: 'vote', key: 'x', vote: 1 }, 'Unknown type for todo data: vote'],
    ];
    for (const [id, content, msg] of refusals) await expectRefused(realm, () => post('mia', id, content), error(msg));
  });

  it('refuses more once a message holds its most, in number or in length, and changes nothing', async () => {
    const id = await send('mark', '/poll Lunch?\nPizza');
    const vote = JSON.stringify({ type: 'vote', key: 'canned,0', vote: 1 });
    const row = (await realm.engine.db.messages.get(id))!;
    const filler = (count: number, content: string) => Array.from({ length: count }, (_, i) => ({ id: 100 + i, sender_id: IDS.mia, msg_type: 'widget', content }));
    await realm.engine.db.messages.update(id, { submessages: [...row.submessages!, ...filler(1999, vote)] });
    await expectRefused(realm, () => post('mia', id, vote), error('This message has too many submessages.'));
    await realm.engine.db.messages.update(id, { submessages: [...row.submessages!, ...filler(21, JSON.stringify('x'.repeat(9990)))] });
    await expectRefused(realm, () => post('mia', id, vote), error('This message has too many submessages.'));
    await realm.engine.db.messages.update(id, { submessages: [...row.submessages!, ...filler(19, JSON.stringify('x'.repeat(9990)))] });
    expect((await post('mia', id, vote)).status).toBe(200);
  });

  it('refuses a message the caller cannot see, and bounds the content and the type', async () => {
    await expectRefused(realm, () => post('mia', SECRET_PLANS, {}), error('Invalid message(s)'));
    await expectRefused(realm, () => post('mia', 9999, {}), error('Invalid message(s)'));
    await expectRefused(realm, () => post('mark', MARKS_THANKS, JSON.stringify('x'.repeat(10000))), error('content is too long (limit: 10000 characters)'));
    await expectRefused(realm, () => post('mark', MARKS_THANKS, {}, 'w'.repeat(101)), error('msg_type is too long (limit: 100 characters)'));
    await expectRefused(realm, () => realm.as('mark').post('/submessage', { message_id: 'two', msg_type: 'widget', content: '{}' }), error('message_id is not valid JSON'));
  });
});
