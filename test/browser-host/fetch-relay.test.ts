import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { serveRelayPort } from '../../src/browser-host/engine-worker/relay-server.ts';
import { ReplayGuard } from '../../src/browser-host/engine-worker/replay-guard.ts';
import type { EngineConnection } from '../../src/browser-host/page/engine-connection.ts';
import { relayPageFetches } from '../../src/browser-host/page/fetch-relay.ts';
import { createTestRealm, IDS, type TestRealm } from '../support/test-realm.ts';

/**
 * A page without a Service Worker (plain http on a LAN) relays its own fetches to the engine.
 * Here the page's globals are stubbed, and the engine's end of the relay is the engine worker's
 * own code over a real engine.
 */

const ORIGIN = 'http://trainer.test:9991';
const MARK = { Authorization: `Basic ${btoa('mark@zulip.test:MarkKey0000000000000000000000004')}` };

let realm: TestRealm;
/** One for the engine, whichever tab's port a request comes on, as in the engine worker. */
let guard: ReplayGuard;
let network: ReturnType<typeof vi.fn<typeof fetch>>;

/** A tab's `fetch` once its boot has wrapped it. */
function tabFetch(): typeof fetch {
  vi.stubGlobal('window', { fetch: network });
  relayPageFetches({
    hello: () => Promise.resolve({ lockName: 'offline-realm-engine:test' }),
    attachRelay: (port: MessagePort) => serveRelayPort(port, () => Promise.resolve(realm.engine), guard),
  } as unknown as EngineConnection);
  return (window as unknown as { fetch: typeof fetch }).fetch;
}

const send = (pageFetch: typeof fetch, content: string) =>
  pageFetch('/api/v1/messages', { method: 'POST', headers: MARK, body: new URLSearchParams({ type: 'stream', to: 'general', topic: 'relay', content }) });

beforeEach(async () => {
  realm = await createTestRealm();
  guard = new ReplayGuard();
  network = vi.fn<typeof fetch>(() => Promise.resolve(new Response('from the network')));
  vi.stubGlobal('location', new URL(`${ORIGIN}/`));
});
afterEach(() => {
  vi.unstubAllGlobals();
  realm.engine.queues.close();
  realm.engine.close();
});

describe('a page that relays its own fetches to the engine', () => {
  test('answers same-origin API calls from the engine and leaves every other address to the network', async () => {
    const pageFetch = tabFetch();
    const me = await pageFetch('/api/v1/users/me', { headers: MARK });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ result: 'success', email: 'mark@zulip.test' });
    expect(network).not.toHaveBeenCalled();

    const elsewhere = ['http://hub.test/api/v1/users/me', `${ORIGIN}/index.html`, '/sync/v1/pull', new URL(`${ORIGIN}/assets/app.js`)];
    for (const address of elsewhere) expect(await (await pageFetch(address)).text()).toBe('from the network');
    expect(network.mock.calls.map(([input]) => String(input))).toEqual(elsewhere.map(String));
  });

  test('gives the engine\'s own error JSON for a refused request, and runs a write once', async () => {
    const pageFetch = tabFetch();
    const anonymous = await pageFetch(`${ORIGIN}/api/v1/users/me`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ result: 'error', code: 'UNAUTHORIZED' });

    const before = await realm.engine.db.messages.count();
    const sent = await send(pageFetch, 'through the page');
    expect(sent.status).toBe(200);
    const { id } = (await sent.json()) as { id: number };
    expect((await realm.engine.db.messages.get(id))?.content).toBe('through the page');
    expect(await realm.engine.db.messages.count()).toBe(before + 1);
  });

  test('runs the same write from two tabs twice: each tab is a client of its own to the replay guard', async () => {
    const [tabA, tabB] = [tabFetch(), tabFetch()];
    const before = await realm.engine.db.messages.count();
    const answers = await Promise.all([send(tabA, 'same words'), send(tabB, 'same words')]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    const ids = await Promise.all(answers.map(async (answer) => ((await answer.json()) as { id: number }).id));
    expect(new Set(ids).size).toBe(2);
    expect(await realm.engine.db.messages.count()).toBe(before + 2);
  });

  test('rejects an aborted fetch as the browser does, releasing the long-poll it waited on', async () => {
    const pageFetch = tabFetch();
    const registered = (await (await pageFetch('/api/v1/register', { method: 'POST', headers: MARK, body: new URLSearchParams({ event_types: '["message"]' }) })).json()) as {
      queue_id: string;
      last_event_id: number;
    };
    const abort = new AbortController();
    const poll = pageFetch(`/api/v1/events?queue_id=${registered.queue_id}&last_event_id=${registered.last_event_id}`, { headers: MARK, signal: abort.signal });
    await vi.waitFor(() => expect(realm.engine.queues.get(registered.queue_id, IDS.mark).waiter).not.toBeNull());
    abort.abort();
    await expect(poll).rejects.toMatchObject({ name: 'AbortError' });
    await vi.waitFor(() => expect(realm.engine.queues.get(registered.queue_id, IDS.mark).waiter).toBeNull());
  });
});
