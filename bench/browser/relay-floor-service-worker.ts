/**
 * The relay's floor (built to /bench-relay-floor-sw.js, bench build only): the least the runtime
 * contract's path can cost. A Service Worker that sends each `/api/v1/*` fetch over a port to a
 * SharedWorker (relay-floor-worker.ts), which answers a fixed JSON at once: the same hops as the
 * app's relay (fetch -> Service Worker -> port -> SharedWorker -> port -> Service Worker), with
 * no engine and no bookkeeping. The bench page hands it the port (relay-peers.ts); a worker
 * restarted by the browser has none and answers 503 until it is given a new one.
 */
import type { RelayFloorAnswer, RelayFloorPortMessage, RelayFloorRequest } from './relay-floor-protocol.ts';

const sw = self as unknown as ServiceWorkerGlobalScope;
const waiting = new Map<number, (answer: RelayFloorAnswer) => void>();
let port: MessagePort | null = null;
let nextId = 1;

sw.addEventListener('install', () => void sw.skipWaiting());
sw.addEventListener('activate', (event) => event.waitUntil(sw.clients.claim()));
sw.addEventListener('message', (event: ExtendableMessageEvent) => {
  const message = event.data as RelayFloorPortMessage;
  if (message?.type !== 'relay-floor-port') return;
  port?.close();
  port = message.port;
  port.onmessage = ({ data }: MessageEvent<RelayFloorAnswer>) => {
    waiting.get(data.id)?.(data);
    waiting.delete(data.id);
  };
  message.connected.postMessage('connected');
  message.connected.close();
});
sw.addEventListener('fetch', (event) => {
  if (!new URL(event.request.url).pathname.startsWith('/api/v1/')) return;
  event.respondWith(relay(event.request));
});

async function relay(request: Request): Promise<Response> {
  const link = port;
  if (!link) return new Response('the relay floor has no port', { status: 503 });
  const body = request.method === 'GET' || request.method === 'HEAD' ? null : await request.arrayBuffer();
  const id = nextId++;
  const answer = await new Promise<RelayFloorAnswer>((resolve) => {
    waiting.set(id, resolve);
    const message: RelayFloorRequest = { id, method: request.method, url: request.url, headers: [...request.headers], body };
    link.postMessage(message, body ? [body] : []);
  });
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}
