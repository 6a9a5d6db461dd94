import type { EngineConnection } from './engine-connection.ts';
import type { ClaimMessage, EnginePortMessage, NeedPortMessage } from '../protocol/relay-protocol.ts';

/** Whether this page may have a Service Worker: browsers give one only to a secure context (https, localhost). */
export const serviceWorkerAvailable = (): boolean => window.isSecureContext && 'serviceWorker' in navigator;

/** The Service Worker asks for a port whenever it has none (first request, after a restart). */
export function answerPortRequests(engine: EngineConnection): void {
  navigator.serviceWorker.addEventListener('message', (event: MessageEvent<NeedPortMessage>) => {
    const reply = event.ports[0];
    if (event.data?.type !== 'need-port' || !reply) return;
    // Asked each time: without SharedWorker the engine (and its lock) changes when a leader tab closes.
    void engine.hello().then(({ lockName }) => {
      const channel = new MessageChannel();
      engine.attachRelay(channel.port1);
      const offer: EnginePortMessage = { type: 'engine-port', port: channel.port2, lockName };
      reply.postMessage(offer, [channel.port2]);
    });
  });
  // Messages from the Service Worker wait in a queue until this call.
  navigator.serviceWorker.startMessages();
}

/**
 * Registers the Service Worker at `url` for the whole site and resolves once it controls this
 * page: until then the page's fetches bypass it and reach no engine.
 */
export async function takeControl(url: string): Promise<void> {
  const container = navigator.serviceWorker;
  const controlled = new Promise<void>((resolve) => {
    if (container.controller) resolve();
    else container.addEventListener('controllerchange', () => resolve(), { once: true });
  });
  const registration = await container.register(url, { type: 'module', scope: '/' });
  if (!container.controller) {
    // An active worker does not claim a page loaded by a hard reload; ask it to.
    const active = registration.active ?? (await container.ready).active;
    active?.postMessage({ type: 'claim' } satisfies ClaimMessage);
  }
  await controlled;
}
