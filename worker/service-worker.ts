/**
 * The Service Worker entry (built to /sw.js): relays every same-origin `/api/v1/*` fetch to the
 * engine in the SharedWorker and leaves every other request alone.
 * See src/browser-host/engine-relay.ts.
 */
import { EngineRelay } from '../src/browser-host/engine-relay.ts';
import { type ClaimMessage, RELAYED_PATH_PREFIX } from '../src/browser-host/relay-protocol.ts';

const sw = self as unknown as ServiceWorkerGlobalScope;
const relay = new EngineRelay(sw.clients, sw.navigator.locks);

// A new version takes over at once, and the first visit is controlled without a reload.
sw.addEventListener('install', () => void sw.skipWaiting());
sw.addEventListener('activate', (event) => event.waitUntil(sw.clients.claim()));
sw.addEventListener('message', (event: ExtendableMessageEvent) => {
  if ((event.data as ClaimMessage | null)?.type === 'claim') event.waitUntil(sw.clients.claim());
});

sw.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (url.origin !== sw.location.origin || !url.pathname.startsWith(RELAYED_PATH_PREFIX)) return;
  event.respondWith(relay.answer(event));
});
