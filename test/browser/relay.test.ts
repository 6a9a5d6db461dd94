import { afterAll, beforeAll, describe, expect, inject, onTestFinished, test } from 'vitest';
import { commands } from 'vitest/browser';
import { MARCUS, OLIVIA, registerQueue, sendToGeneral, topicMessages } from './demo-calls.ts';
import { type ApiAnswer, callApi, inTab } from './tabs.ts';

const origin = inject('appOrigin');

function poll(tab: string, auth: string, queueId: string, lastEventId = -1): Promise<ApiAnswer> {
  return callApi(tab, { method: 'GET', path: '/events', auth, params: { queue_id: queueId, last_event_id: lastEventId } });
}

// One visitor with two tabs: both share one engine (SharedWorker) through one Service Worker.
describe('the relay between tabs, the Service Worker and the engine', () => {
  let profile: string;
  let tabA: string;
  let tabB: string;
  beforeAll(async () => {
    profile = await commands.openProfile();
    tabA = await commands.openTab(profile, `${origin}/`);
    tabB = await commands.openTab(profile, `${origin}/`);
  });
  afterAll(async () => {
    await commands.closeProfile(profile);
  });

  test('answers GET /users/me relayed through the Service Worker, again and again on one port', async () => {
    // How fast is the bench's figure (npm run bench: GET /users/me through the relay, p50).
    const answers = [];
    for (let i = 0; i < 20; i++) answers.push(await callApi(tabA, { method: 'GET', path: '/users/me', auth: OLIVIA }));
    expect(answers.map((answer) => [answer.status, answer.body.email])).toEqual(answers.map(() => [200, 'olivia@lakeside.test']));
  });

  test('refuses a body longer than the engine reads with the engine’s own 413', async () => {
    // The Service Worker refuses it by its length, unread (test/browser-host/relayed-body.test.ts).
    const answer = await inTab(
      tabA,
      async ({ auth, bytes }: { auth: string; bytes: number }) => {
        const response = await fetch('/api/v1/messages', {
          method: 'POST',
          headers: { Authorization: `Basic ${btoa(auth)}`, 'Content-Type': 'application/x-www-form-urlencoded' },
          body: `content=${'x'.repeat(bytes)}`,
        });
        return { status: response.status, body: (await response.json()) as unknown };
      },
      { auth: OLIVIA, bytes: 25 * 1024 * 1024 },
    );
    expect(answer).toEqual({ status: 413, body: { result: 'error', msg: 'Request body too large (limit: 25 MiB)', code: 'BAD_REQUEST' } });
  });

  test('delivers a message sent in one tab to the long-poll waiting in another', async () => {
    const queueId = await registerQueue(tabB, MARCUS);
    // Sent after the poll was issued; parked or not yet, the poll gets it (the waking of a parked
    // poll itself is test/engine/event-queues.test.ts's, where the queue can be seen).
    const waiting = poll(tabB, MARCUS, queueId);

    const sent = await sendToGeneral(tabA, 'between tabs', 'hello from tab A');
    const events = await waiting;

    expect(events.status).toBe(200);
    expect(events.body).toMatchObject({ result: 'success', queue_id: queueId });
    expect(events.body.events).toEqual([
      expect.objectContaining({
        type: 'message',
        id: 0,
        flags: [],
        message: expect.objectContaining({ id: sent.body.id, sender_email: 'olivia@lakeside.test', subject: 'between tabs' }),
      }),
    ]);
  });

  test('regains the engine after the Service Worker is stopped, without failing the request that woke it', async () => {
    const queueId = await registerQueue(tabA, OLIVIA);

    await commands.stopServiceWorkers(tabA);
    const me = await callApi(tabA, { method: 'GET', path: '/users/me', auth: OLIVIA });
    const events = await callApi(tabA, {
      method: 'GET',
      path: '/events',
      auth: OLIVIA,
      params: { queue_id: queueId, last_event_id: -1, dont_block: true },
    });

    expect(me.status).toBe(200);
    expect(me.body.email).toBe('olivia@lakeside.test');
    // Same engine, so the queue survived the Service Worker's restart.
    expect(events.status).toBe(200);
    expect(events.body.events).toEqual([]);
  });

  test('answers a long-poll that was pending while the Service Worker was stopped', async () => {
    const queueId = await registerQueue(tabB, MARCUS);
    const waiting = poll(tabB, MARCUS, queueId);

    await commands.stopServiceWorkers(tabB);
    const sent = await sendToGeneral(tabA, 'after a restart', 'does the poll still hear this?');
    const events = await waiting;

    expect(events.status).toBe(200);
    expect(events.body.events).toEqual([
      expect.objectContaining({ type: 'message', id: 0, message: expect.objectContaining({ id: sent.body.id }) }),
    ]);
  });

  test('applies a POST once when the browser re-sends it to a restarted Service Worker', async () => {
    // A scenario load in a third tab holds the engine: once its worker has the realm file, the
    // import runs and the POST waits behind it. The Service Worker is stopped as the POST leaves
    // the tab, so the browser re-sends it to a new one, a second copy for the engine if the first
    // Service Worker had relayed it already (no page can see that; about one run in three). The
    // assertions hold in every interleaving; the rule for copies is replay-guard.test.ts's.
    const realmFile = '/scenarios/demo.realm.json';
    const fetchedBefore = await commands.engineWorkerFetches(profile, realmFile);
    const loader = await commands.startTab(profile, `${origin}/?scenario=demo`);
    onTestFinished(() => commands.closeTab(loader));
    await expect.poll(() => commands.engineWorkerFetches(profile, realmFile), { timeout: 15_000 }).toBe(fetchedBefore + 1);
    await commands.stopServiceWorkersOnRequest(tabA, '/api/v1/messages');

    const sent = await sendToGeneral(tabA, 'exactly once', 'sent once, relayed twice');
    await commands.serviceWorkersStoppedOnRequest(tabA);

    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ result: 'success', id: expect.any(Number) });
    expect(await topicMessages(tabA, 'exactly once')).toEqual([{ id: sent.body.id, content: 'sent once, relayed twice' }]);
  });

  test('a new engine after every tab closed answers BAD_EVENT_QUEUE_ID for a lost queue and keeps the realm', async () => {
    const queueId = await registerQueue(tabA, OLIVIA);
    const sent = await sendToGeneral(tabA, 'engine restart', 'written before the restart');

    await commands.closeTab(tabA);
    await commands.closeTab(tabB);
    // The engine outlives its last tab for a while; the browser ends it then, as here.
    await commands.endSharedWorkers(profile);
    tabA = await commands.openTab(profile, `${origin}/`);
    const lost = await poll(tabA, OLIVIA, queueId);

    expect(lost.status).toBe(400);
    expect(lost.body).toEqual({ result: 'error', msg: `Bad event queue ID: ${queueId}`, code: 'BAD_EVENT_QUEUE_ID', queue_id: queueId });
    expect(await topicMessages(tabA, 'engine restart')).toEqual([{ id: sent.body.id, content: 'written before the restart' }]);
    const engines = await inTab(
      tabA,
      async () => ((await navigator.locks.query()).held ?? []).filter((lock) => lock.name?.startsWith('offline-realm-engine:')).length,
      null,
    );
    expect(engines).toBe(1);
  });
});
