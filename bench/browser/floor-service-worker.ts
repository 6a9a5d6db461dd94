/**
 * The floor of the small-GET figure (built to /bench-floor-sw.js, bench build only): a Service
 * Worker that answers `/api/v1/*` by itself with a fixed JSON, the body the bench page gives it
 * in its script URL (`?body=`, kept across a restart of the worker). Nothing can reach a page's
 * `fetch` through a Service Worker for less.
 */
const sw = self as unknown as ServiceWorkerGlobalScope;
const body = new URL(sw.location.href).searchParams.get('body') ?? '';

sw.addEventListener('install', () => void sw.skipWaiting());
sw.addEventListener('activate', (event) => event.waitUntil(sw.clients.claim()));
sw.addEventListener('fetch', (event) => {
  if (!new URL(event.request.url).pathname.startsWith('/api/v1/')) return;
  event.respondWith(new Response(body, { headers: { 'Content-Type': 'application/json' } }));
});
