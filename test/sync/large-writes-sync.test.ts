import { afterEach, describe, expect, it } from 'vitest';
import { SyncWorld, syncedWorld, type TestReplica } from './sync-fixture.ts';

/**
 * Writes as large as a replica takes: a pasted log of a message (the API takes any length and
 * cuts it to 10,000 characters), many of them queued offline, a body past the replica's limit,
 * and a forwarded write whose parameters the peer protocol cannot carry.
 */

let world: SyncWorld;
afterEach(() => world?.close());

/** The contents of a topic's messages on the hub, as mark sees them there. */
async function onHub(topic: string): Promise<string[]> {
  const { body } = await world.onHub('mark').get('/messages', { anchor: 'newest', num_before: 1000, num_after: 0, apply_markdown: false });
  return (body.messages as { subject: string; content: string }[]).filter((m) => m.subject === topic).map((m) => m.content);
}

const CUT = '\n[message truncated]';
const cutTo10k = (text: string) => `${text.slice(0, 10_000 - CUT.length)}${CUT}`;

describe('large writes on a replica', () => {
  it('push a message of 150,000 characters, which the hub cuts as the API does, and the changes after it follow', async () => {
    let mark: TestReplica;
    ({ world, replicas: { mark } } = await syncedWorld('mark'));
    const log = 'x'.repeat(150_000);
    expect((await mark.api.post('/messages', { type: 'stream', to: 'general', topic: 'log', content: log })).status).toBe(200);
    expect((await mark.api.post('/messages', { type: 'stream', to: 'general', topic: 'log', content: 'and after it' })).status).toBe(200);
    expect(await mark.replica.sync()).toBe('online');
    expect(await onHub('log')).toEqual([cutTo10k(log), 'and after it']);
    expect(await mark.replica.engine.db.sync_outbox.count()).toBe(0);
  });

  it('push changes queued offline that one push cannot hold in several, in order', async () => {
    let mark: TestReplica;
    ({ world, replicas: { mark } } = await syncedWorld('mark'));
    mark.link.cut = true;
    // 45 messages of 200,000 characters: 9 MB of JSON, past the 8 MiB a hub reads in one body.
    const sent = Array.from({ length: 45 }, (_, i) => `${i}`.padEnd(200_000, 'y'));
    for (const content of sent) expect((await mark.api.post('/messages', { type: 'stream', to: 'general', topic: 'many', content })).status).toBe(200);
    mark.link.cut = false;
    expect(await mark.replica.sync()).toBe('online');
    expect(await onHub('many')).toEqual(sent.map(cutTo10k));
    expect(mark.link.pushResults.map((result) => result.outcome)).toEqual(sent.map(() => 'applied'));
    expect(mark.link.calls.filter((path) => path.endsWith('/push')).length).toBe(3);
  });

  it('refuse a write past the replica\'s body limit at once, queueing nothing', async () => {
    let mark: TestReplica;
    ({ world, replicas: { mark } } = await syncedWorld('mark'));
    const answer = await mark.api.post('/messages', { type: 'stream', to: 'general', topic: 'huge', content: 'z'.repeat(300_000) });
    expect(answer).toEqual({ status: 400, body: { result: 'error', msg: 'This request is too large to sync', code: 'SYNC_UNSUPPORTED_ACTION' } });
    expect(await mark.replica.engine.db.sync_outbox.count()).toBe(0);
  });

  it('refuse a forwarded write whose parameters the peer protocol cannot carry, saying why', async () => {
    let mark: TestReplica;
    ({ world, replicas: { mark } } = await syncedWorld('mark'));
    const answer = await mark.api.post('/users/me/alert_words', { alert_words: JSON.stringify(['pizza']), ['n'.repeat(70)]: 'ignored' });
    expect(answer).toEqual({
      status: 400,
      body: {
        result: 'error',
        msg: 'POST /users/me/alert_words has more than 64 parameters or a parameter name over 64 characters, which the hub does not take',
        code: 'SYNC_UNSUPPORTED_ACTION',
      },
    });
    expect(await world.hubEngine.db.alert_words.count()).toBe(0);
  });
});
