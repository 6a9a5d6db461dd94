/**
 * The Service Worker entry (built to /sw.js): relays every same-origin `/api/v1/*` and
 * `/user_uploads/*` fetch to the engine in the SharedWorker, serves the cached app shell
 * (src/browser-host/service-worker/app-shell.ts), and leaves every other request alone.
 * See src/browser-host/service-worker/engine-relay.ts.
 */
import { EngineRelay } from '../src/browser-host/service-worker/engine-relay.ts';
import { passToLeader } from '../src/browser-host/service-worker/leader-broker.ts';
import type { ConnectEngineMessage } from '../src/browser-host/protocol/leader-protocol.ts';
import { type ClaimMessage, isRelayedPath } from '../src/browser-host/protocol/relay-protocol.ts';
import { APP_SHELL } from 'virtual:app-shell-manifest';
import { serveAppShell } from '../src/browser-host/service-worker/app-shell.ts';

const sw = self as unknown as ServiceWorkerGlobalScope;
const relay = new EngineRelay(sw.clients, sw.navigator.locks);
serveAppShell(sw, APP_SHELL);

// A new version takes over at once, and the first visit is controlled without a reload.
sw.addEventListener('install', () => void sw.skipWaiting());
sw.addEventListener('activate', (event) => event.waitUntil(sw.clients.claim()));
sw.addEventListener('message', (event: ExtendableMessageEvent) => {
  if ((event.data as ClaimMessage | null)?.type === 'claim') event.waitUntil(sw.clients.claim());
});
// Without SharedWorker, tabs reach the leader tab's engine through here (leader-broker.ts).
sw.addEventListener('message', (event: ExtendableMessageEvent) => {
  const data = event.data as ConnectEngineMessage | null;
  if (data?.type === 'connect-engine') event.waitUntil(passToLeader(sw.clients, data.port));
});

sw.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (url.origin !== sw.location.origin || !isRelayedPath(url.pathname)) return;
  event.respondWith(relay.answer(event));
});
