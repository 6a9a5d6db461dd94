import { afterEach, describe, expect, it } from 'vitest';
import { IDS } from '../support/test-realm.ts';
import { syncedWorld, type SyncWorld, type TestReplica } from './sync-fixture.ts';

let world: SyncWorld;
afterEach(() => world?.close());

const submessagesOn = async (replica: TestReplica, id: number) => (await replica.api.get(`/messages/${id}`)).body.message.submessages;

describe('a poll through the hub', () => {
  it('sent on one replica reaches the other with the hub’s widget; a vote on the other is the hub’s and is told to the first one’s clients', async () => {
    const synced = await syncedWorld('mark', 'mia');
    world = synced.world;
    const { mark, mia } = synced.replicas;
    const sent = await mark.api.post('/messages', { type: 'stream', to: 'general', topic: 'lunch', content: '/poll Lunch?\nPizza\nSushi' });
    expect(sent.status).toBe(200);
    expect(await mark.replica.sync()).toBe('online');
    const onHub = (await world.hubEngine.db.messages.orderBy('id').last())!;
    expect(onHub.submessages).toHaveLength(1);
    expect(await mia.replica.sync()).toBe('online');
    const [widget] = await submessagesOn(mia, onHub.id);
    expect(widget).toEqual({ msg_type: 'widget', content: onHub.submessages![0]!.content, message_id: onHub.id, sender_id: IDS.mark, id: onHub.submessages![0]!.id });

    // Mia votes on her replica: the hub takes it (a write only the hub does), and her replica holds it after.
    const vote = JSON.stringify({ type: 'vote', key: 'canned,1', vote: 1 });
    const clientOfMark = mark.openQueue();
    expect((await mia.api.post('/submessage', { message_id: onHub.id, msg_type: 'widget', content: vote })).body).toEqual({ result: 'success', msg: '' });
    const hubVote = (await world.hubEngine.db.messages.get(onHub.id))!.submessages![1]!;
    expect(hubVote).toMatchObject({ sender_id: IDS.mia, msg_type: 'widget', content: vote });
    expect(await mia.replica.sync()).toBe('online');
    expect((await submessagesOn(mia, onHub.id)).map((submessage: { id: number }) => submessage.id)).toEqual([widget.id, hubVote.id]);

    expect(await mark.replica.sync()).toBe('online');
    expect(await submessagesOn(mark, onHub.id)).toEqual(await submessagesOn(mia, onHub.id));
    expect(clientOfMark.events.filter((event) => event.type === 'submessage')).toEqual([
      { id: expect.any(Number), type: 'submessage', msg_type: 'widget', message_id: onHub.id, submessage_id: hubVote.id, sender_id: IDS.mia, content: vote },
    ]);
  });
});
