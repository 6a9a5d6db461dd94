import { afterEach, describe, expect, test, vi } from 'vitest';
import { EngineLink } from '../../src/browser-host/relay-client/engine-link.ts';
import type { RelayedRequest, RelayedResponse } from '../../src/browser-host/protocol/relay-protocol.ts';

function request(id: number, method = 'GET'): RelayedRequest {
  const url = method === 'GET' ? 'http://app.test/api/v1/events' : 'http://app.test/api/v1/messages';
  return { type: 'request', id, relayInstance: 'sw-a', clientId: 'tab-1', method, url, headers: [], body: null };
}

function response(id: number): RelayedResponse {
  return { type: 'response', id, status: 200, statusText: '', headers: [], body: null };
}

/** What the engine's end of the port received. */
function engineEnd(port: MessagePort): unknown[] {
  const received: unknown[] = [];
  port.onmessage = ({ data }) => received.push(data);
  return received;
}

const channels: MessageChannel[] = [];
afterEach(() => {
  for (const channel of channels.splice(0)) channel.port2.close();
});

function link(): { link: EngineLink; engine: MessagePort } {
  const channel = new MessageChannel();
  channels.push(channel);
  return { link: new EngineLink(channel.port1, 'offline-realm-engine:x', 'sw-a'), engine: channel.port2 };
}

describe('a link from the Service Worker to the engine', () => {
  test('matches replies to requests by id, whatever their order, and acknowledges each mutation\'s', async () => {
    const { link: relay, engine } = link();
    const received = engineEnd(engine);

    const first = relay.send(request(1, 'POST'), 1_000, new AbortController().signal);
    const second = relay.send(request(2, 'PATCH'), 1_000, new AbortController().signal);
    engine.postMessage(response(2));
    engine.postMessage(response(1));

    expect(await first).toEqual(response(1));
    expect(await second).toEqual(response(2));
    // The acknowledgements travel after the answers were handed over.
    await vi.waitFor(() =>
      expect(received).toEqual([
        request(1, 'POST'),
        request(2, 'PATCH'),
        { type: 'ack', id: 2, relayInstance: 'sw-a' },
        { type: 'ack', id: 1, relayInstance: 'sw-a' },
      ]),
    );
  });

  test('acknowledges no read: the engine keeps no answer of one', async () => {
    const { link: relay, engine } = link();
    const received = engineEnd(engine);

    const read = relay.send(request(6), 1_000, new AbortController().signal);
    engine.postMessage(response(6));
    expect(await read).toEqual(response(6));
    // A mutation after it is acknowledged, and nothing came for the read before that.
    const write = relay.send(request(7, 'POST'), 1_000, new AbortController().signal);
    engine.postMessage(response(7));
    expect(await write).toEqual(response(7));
    await vi.waitFor(() => expect(received).toEqual([request(6), request(7, 'POST'), { type: 'ack', id: 7, relayInstance: 'sw-a' }]));
  });

  test('gives up after its timeout with null and tells the engine to abort the request', async () => {
    const { link: relay, engine } = link();
    const received = engineEnd(engine);

    const answer = await relay.send(request(3), 30, new AbortController().signal);
    expect(answer).toBeNull();
    await vi.waitFor(() => expect(received).toEqual([request(3), { type: 'abort', id: 3 }]));
  });

  test('abandons a request whose fetch was aborted', async () => {
    const { link: relay, engine } = link();
    const received = engineEnd(engine);
    const fetchAbort = new AbortController();

    const pending = relay.send(request(4), 1_000, fetchAbort.signal);
    fetchAbort.abort();

    expect(await pending).toBeNull();
    await vi.waitFor(() => expect(received).toEqual([request(4), { type: 'abort', id: 4 }]));
  });

  test('when retired, still delivers the reply pending on it (a long-poll) before closing', async () => {
    const { link: relay, engine } = link();
    engineEnd(engine);

    const pending = relay.send(request(5), 1_000, new AbortController().signal);
    relay.retire();
    engine.postMessage(response(5));

    expect(await pending).toEqual(response(5));
  });

  test('when its engine died, answers every pending request with null at once', async () => {
    const { link: relay, engine } = link();
    engineEnd(engine);

    const pending = relay.send(request(6), 60_000, new AbortController().signal);
    relay.fail();

    expect(await pending).toBeNull();
  });
});
