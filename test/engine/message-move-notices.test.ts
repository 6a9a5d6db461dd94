import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestRealm, IDS, openQueue, type TestRealm } from '../support/test-realm.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const NOTIFICATION_BOT = 1;
const MARK = '@_**Mark Member|11**';
const move = (id: number, params: Record<string, unknown>) => realm.as('mark').patch(`/messages/${id}`, params);
/** A topic's messages as Olivia reads them: id, sender, raw content and her flags. */
async function topic(channel: number, name: string) {
  const { body } = await realm.as('olivia').get('/messages', {
    anchor: 'oldest',
    num_before: 0,
    num_after: 50,
    narrow: [
      { operator: 'channel', operand: channel },
      { operator: 'topic', operand: name },
    ],
    apply_markdown: false,
  });
  return (body.messages as Record<string, unknown>[]).map((m) => ({ id: m.id, sender_id: m.sender_id, content: m.content, flags: m.flags }));
}
const note = (id: number, content: string) => ({ id, sender_id: NOTIFICATION_BOT, content, flags: [] });

describe('PATCH /messages/{id}: the notification bot’s notes on moves', () => {
  it('notes a whole topic’s move in the new topic only, by default, read for the mover', async () => {
    expect((await move(1, { topic: 'greetings', propagate_mode: 'change_all' })).status).toBe(200);
    expect(await topic(IDS.general, 'greetings')).toEqual([
      expect.objectContaining({ id: 1 }),
      expect.objectContaining({ id: 2 }),
      note(5, `This topic was moved here from #**general>welcome** by ${MARK}.`),
    ]);
    expect(await topic(IDS.general, 'welcome')).toEqual([]);
    expect((await realm.as('mark').get('/messages/5')).body.message.flags).toEqual(['read']);
  });

  it('notes one moved message in both topics when asked, linking it in its new place', async () => {
    expect((await move(2, { topic: 'greetings', send_notification_to_old_thread: true })).status).toBe(200);
    expect(await topic(IDS.general, 'greetings')).toEqual([
      expect.objectContaining({ id: 2 }),
      note(5, `[A message](http://zulip.test/#narrow/channel/1-general/topic/greetings/near/2) was moved here from #**general>welcome** by ${MARK}.`),
    ]);
    expect(await topic(IDS.general, 'welcome')).toEqual([
      expect.objectContaining({ id: 1 }),
      note(6, `A message was moved from this topic to #**general>greetings** by ${MARK}.`),
    ]);
  });

  it('moves a message on from a topic cut past 60 characters between two emoji, noting both topics', async () => {
    const long = `${'a'.repeat(56)}${'😀'.repeat(10)}`;
    expect((await move(2, { topic: long })).status).toBe(200);
    const cut = `${'a'.repeat(56)}😀...`;
    expect((await realm.as('mark').get('/messages/2')).body.message.subject).toBe(cut);
    expect((await move(2, { topic: 'onwards', send_notification_to_old_thread: true })).status).toBe(200);
    expect((await topic(IDS.general, cut)).at(-1)).toEqual(note(7, `A message was moved from this topic to #**general>onwards** by ${MARK}.`));
    expect((await topic(IDS.general, 'onwards')).at(-1)).toEqual(
      note(6, `[A message](http://zulip.test/#narrow/channel/1-general/topic/onwards/near/2) was moved here from #**general>${cut}** by ${MARK}.`),
    );
  });

  it('links a topic stored with half an emoji (cut before cuts counted characters) instead of failing', async () => {
    await realm.engine.db.messages.update(2, { topic: 'half \ud83d' });
    expect((await move(2, { topic: 'whole', send_notification_to_new_thread: true })).status).toBe(200);
    const { body } = await realm.as('olivia').get('/messages', {
      anchor: 'newest', num_before: 1, num_after: 0, narrow: [{ operator: 'topic', operand: 'whole' }],
    });
    expect(body.messages[0].content).toContain('href="/#narrow/channel/1-general/topic/half.20.EF.BF.BD"');
  });

  it('counts the messages when only part of a topic moves, or when the new topic already had some', async () => {
    const sent = await realm.as('mark').post('/messages', { type: 'stream', to: IDS.general, topic: 'welcome', content: 'later' });
    expect(sent.body.id).toBe(5);
    expect((await realm.as('mark').post('/messages', { type: 'stream', to: IDS.design, topic: 'welcome', content: 'here already' })).status).toBe(200);
    expect((await move(2, { stream_id: IDS.design, propagate_mode: 'change_later', send_notification_to_old_thread: true })).status).toBe(200);
    expect((await topic(IDS.design, 'welcome')).at(-1)).toEqual(note(7, `2 messages were moved here from #**general>welcome** by ${MARK}.`));
    expect((await topic(IDS.general, 'welcome')).at(-1)).toEqual(note(8, `2 messages were moved from this topic to #**design>welcome** by ${MARK}.`));
  });

  it('sends no note when told not to', async () => {
    expect((await move(2, { topic: 'quiet', send_notification_to_new_thread: false })).status).toBe(200);
    expect(await topic(IDS.general, 'quiet')).toEqual([expect.objectContaining({ id: 2 })]);
  });
});

describe('PATCH /messages/{id}: the notification bot’s note on resolving a topic', () => {
  const resolvedNote = (id: number, flags: string[] = []) => ({ id, sender_id: NOTIFICATION_BOT, content: `${MARK} has marked this topic as resolved.`, flags });
  const flagsOf = async (user: 'mark' | 'mia', id: number) => (await realm.as(user).get(`/messages/${id}`)).body.message.flags;

  it('says who resolved it, in the resolved topic, instead of a move note; unread only for who wrote or reacted there', async () => {
    await realm.as('adam').post('/messages/1/reactions', { emoji_name: 'octopus' });
    expect((await move(1, { topic: '✔ welcome', propagate_mode: 'change_all' })).status).toBe(200);
    expect(await topic(IDS.general, '✔ welcome')).toEqual([expect.objectContaining({ id: 1 }), expect.objectContaining({ id: 2 }), resolvedNote(5)]);
    expect(await topic(IDS.general, 'welcome')).toEqual([]);
    // Olivia and Mark wrote in the topic, Adam reacted: theirs is unread; Mia's is read.
    expect(await flagsOf('mark', 5)).toEqual([]);
    expect((await realm.as('adam').get('/messages/5')).body.message.flags).toEqual([]);
    expect(await flagsOf('mia', 5)).toEqual(['read']);
  });

  it('says who unresolved it, once the resolve is over a minute old', async () => {
    await move(1, { topic: '✔ welcome', propagate_mode: 'change_all' });
    realm.clock.advance(61_000);
    expect((await move(1, { topic: 'welcome', propagate_mode: 'change_all' })).status).toBe(200);
    expect(await topic(IDS.general, 'welcome')).toEqual([
      expect.objectContaining({ id: 1 }),
      expect.objectContaining({ id: 2 }),
      resolvedNote(5),
      { id: 6, sender_id: NOTIFICATION_BOT, content: `${MARK} has marked this topic as unresolved.`, flags: [] },
    ]);
  });

  it('takes its note back when the resolve is undone within a minute, and tells the readers it is gone', async () => {
    await move(1, { topic: '✔ welcome', propagate_mode: 'change_all' });
    realm.clock.advance(30_000);
    const olivia = openQueue(realm.engine, IDS.olivia);
    expect((await move(1, { topic: 'welcome', propagate_mode: 'change_all' })).status).toBe(200);
    expect(await topic(IDS.general, 'welcome')).toEqual([expect.objectContaining({ id: 1 }), expect.objectContaining({ id: 2 })]);
    // The note moved back with the topic, then went.
    expect(olivia.events.filter((event) => event.type === 'delete_message')).toEqual([expect.objectContaining({ message_id: 5, topic: 'welcome' })]);
    expect(olivia.events.filter((event) => event.type === 'message')).toEqual([]);
  });

  it('counts a topic cut short by the ✔ as resolved, as upstream does: the resolve note, no move note', async () => {
    const long = 'x'.repeat(60);
    const sent = await realm.as('mark').post('/messages', { type: 'stream', to: 'general', topic: long, content: 'long topic' });
    expect((await move(sent.body.id, { topic: `✔ ${long}`, propagate_mode: 'change_all' })).status).toBe(200);
    const cut = `✔ ${'x'.repeat(55)}...`;
    expect((await topic(IDS.general, cut)).map((m) => m.content)).toEqual(['long topic', `${MARK} has marked this topic as resolved.`]);
  });
});
