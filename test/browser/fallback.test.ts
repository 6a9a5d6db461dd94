import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { commands } from 'vitest/browser';
import { MARCUS, OLIVIA, registerQueue, sendToGeneral, topicMessages } from './demo-calls.ts';
import { type ApiAnswer, callApi, inTab } from './tabs.ts';

const origin = inject('appOrigin');

function poll(tab: string, auth: string, queueId: string): Promise<ApiAnswer> {
  return callApi(tab, { method: 'GET', path: '/events', auth, params: { queue_id: queueId, last_event_id: -1 } });
}

/** The Web Locks held in the tab's profile: the leader tab's, and one per living engine. */
function heldLocks(tab: string): Promise<{ leaders: number; engines: number }> {
  return inTab(
    tab,
    async () => {
      const held = (await navigator.locks.query()).held ?? [];
      return {
        leaders: held.filter((lock) => lock.name === 'offline-realm-leader').length,
        engines: held.filter((lock) => lock.name?.startsWith('offline-realm-engine:')).length,
      };
    },
    null,
  );
}

/** Whether this tab holds the leader lock (it is the one running the engine). */
function leads(tab: string): Promise<boolean> {
  return inTab(
    tab,
    async () => {
      let mine = false;
      // A page cannot read its own client id, but the lock manager names each lock's holder:
      // take a lock of this tab's own and compare.
      const held = (await navigator.locks.query()).held ?? [];
      const holder = held.find((lock) => lock.name === 'offline-realm-leader')?.clientId;
      await navigator.locks.request('offline-realm-probe', async () => {
        const own = (await navigator.locks.query()).held?.find((lock) => lock.name === 'offline-realm-probe')?.clientId;
        mine = holder !== undefined && holder === own;
      });
      return mine;
    },
    null,
  );
}

// Chrome on Android has no SharedWorker: one tab elected by a Web Lock runs the engine in a
// dedicated worker and the others reach it through the Service Worker.
describe('the fallback without SharedWorker', () => {
  let profile: string;
  let leader: string;
  let follower: string;
  beforeAll(async () => {
    profile = await commands.openProfileWithoutSharedWorker();
  });
  afterAll(async () => {
    await commands.closeProfile(profile);
  });

  test('a tab without SharedWorker becomes ready and answers API requests from an engine it hosts', async () => {
    leader = await commands.openTab(profile, `${origin}/`);

    const me = await callApi(leader, { method: 'GET', path: '/users/me', auth: OLIVIA });

    expect(await inTab(leader, async () => typeof SharedWorker, null)).toBe('undefined');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ result: 'success', email: 'olivia@lakeside.test', full_name: 'Olivia Park' });
    expect(await heldLocks(leader)).toEqual({ leaders: 1, engines: 1 });
    expect(await leads(leader)).toBe(true);
  });

  test('a second tab is served by the first tab’s engine: a message it sends reaches the first tab’s long-poll', async () => {
    follower = await commands.openTab(profile, `${origin}/`);
    const queueId = await registerQueue(leader, MARCUS);
    const waiting = poll(leader, MARCUS, queueId);

    const sent = await sendToGeneral(follower, 'from the follower', 'hello from the second tab');
    const events = await waiting;

    expect(sent.status).toBe(200);
    expect(events.status).toBe(200);
    expect(events.body.events).toEqual([
      expect.objectContaining({ type: 'message', message: expect.objectContaining({ id: sent.body.id, subject: 'from the follower' }) }),
    ]);
    expect(await leads(follower)).toBe(false);
    expect(await heldLocks(follower)).toEqual({ leaders: 1, engines: 1 });
  });

  test('a message sent in the leader tab reaches the long-poll of the other tab', async () => {
    const queueId = await registerQueue(follower, MARCUS);
    const waiting = poll(follower, MARCUS, queueId);

    const sent = await sendToGeneral(leader, 'from the leader', 'hello from the first tab');
    const events = await waiting;

    expect(events.status).toBe(200);
    expect(events.body.events).toEqual([
      expect.objectContaining({ type: 'message', message: expect.objectContaining({ id: sent.body.id, subject: 'from the leader' }) }),
    ]);
  });

  test('when the leader tab closes, another tab takes over: the realm is kept, lost queues answer BAD_EVENT_QUEUE_ID, and every tab is served', async () => {
    const third = await commands.openTab(profile, `${origin}/`);
    const before = await sendToGeneral(leader, 'takeover', 'written by the first leader');
    const queueId = await registerQueue(follower, MARCUS);
    const waiting = poll(follower, MARCUS, queueId);

    await commands.closeTab(leader);
    const lost = await waiting;

    // The long-poll pending on the dead engine is answered by the next one, not left to time out.
    expect(lost).toMatchObject({ status: 400, body: { result: 'error', code: 'BAD_EVENT_QUEUE_ID', queue_id: queueId } });
    expect(lost.ms).toBeLessThan(20_000); // the relay's own timeout for a poll is 90 s
    expect(await topicMessages(third, 'takeover')).toEqual([{ id: before.body.id, content: 'written by the first leader' }]);
    // The tab that waited longest leads now; the third tab reaches it as it reached the first.
    expect(await leads(follower)).toBe(true);
    expect(await leads(third)).toBe(false);
    expect(await heldLocks(third)).toEqual({ leaders: 1, engines: 1 });
    const newQueue = await registerQueue(follower, MARCUS);
    const listening = poll(follower, MARCUS, newQueue);
    const after = await sendToGeneral(third, 'takeover', 'sent after the takeover');
    expect((await listening).body.events).toEqual([
      expect.objectContaining({ type: 'message', message: expect.objectContaining({ id: after.body.id }) }),
    ]);
  });
});
