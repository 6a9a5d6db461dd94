import { randomUuid } from '../../engine/crypto/portable-crypto.ts';
import { isRelayedPath, type RelayedRequest } from '../protocol/relay-protocol.ts';
import { EngineLink } from '../relay-client/engine-link.ts';
import { relayedBody } from '../relay-client/relayed-body.ts';
import { relayTimeoutMs, toResponse, unavailable } from '../relay-client/relay-answers.ts';
import type { EngineConnection } from './engine-connection.ts';

/**
 * Where the page has no Service Worker (a plain-http origin on a LAN is no secure context), the
 * page itself relays its own `fetch` calls to same-origin `/api/v1/*` and `/user_uploads/*` to
 * the engine, over the relay protocol the Service Worker speaks (`attachRelay`); every other
 * fetch goes to the network as before. `window.fetch` is replaced, as MSW's browser patches
 * do, so the app keeps calling `fetch` and knows nothing of it. Only this page's `fetch` is
 * relayed: what the browser loads by itself (`<img src>`, navigations) goes to the network.
 */
export function relayPageFetches(engine: EngineConnection): void {
  const networkFetch = window.fetch.bind(window);
  // Also the relay's client id: the replay guard tells tabs apart by it.
  const instance = randomUuid();
  const link = engine.hello().then(({ lockName }) => {
    const channel = new MessageChannel();
    engine.attachRelay(channel.port1);
    return new EngineLink(channel.port2, lockName, instance);
  });
  let nextId = 1;

  window.fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input), location.href);
    if (url.origin !== location.origin || !isRelayedPath(url.pathname)) return networkFetch(input, init);
    const request = new Request(input instanceof Request ? input : url, init);
    const relayed = await relayedBody(request);
    if ('refused' in relayed) return relayed.refused;
    request.signal.throwIfAborted();
    const message: RelayedRequest = {
      type: 'request',
      id: nextId++,
      relayInstance: instance,
      clientId: instance,
      method: request.method,
      url: request.url,
      headers: [...request.headers],
      body: relayed.body,
    };
    const reply = await (await link).send(message, relayTimeoutMs(request), request.signal);
    // An aborted fetch rejects, as the browser's own does.
    request.signal.throwIfAborted();
    return reply ? toResponse(reply) : unavailable('The in-browser server did not answer in time');
  };
}
