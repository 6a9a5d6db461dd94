import { Dexie } from 'dexie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestRealm } from '../support/test-realm.ts';

const told = vi.fn();
afterEach(() => {
  Dexie.on('storagemutated').unsubscribe(told);
  told.mockReset();
});

describe("Dexie's liveQuery bookkeeping", () => {
  it('is off: a committed send tells no liveQuery listener, here or in another context', async () => {
    const { as } = await createTestRealm();
    // Dexie fires this in the commit's own turn (and posts it on its BroadcastChannel) whenever
    // its observability middleware recorded the transaction's writes.
    Dexie.on('storagemutated', told);
    const sent = await as('mark').post('/messages', { type: 'stream', to: 'general', topic: 'quiet', content: 'no bookkeeping' });
    expect(sent.status).toBe(200);
    const read = await as('mark').get(`/messages/${sent.body.id}`);
    expect(read.body.message.content).toBe('<p>no bookkeeping</p>');
    expect(told).not.toHaveBeenCalled();
  });
});
