import type { EnginePortMessage, NeedPortMessage } from '../protocol/relay-protocol.ts';

/**
 * Asks pages for a port to the engine and takes the first answer; later answers are closed.
 * Resolves null when none answers within `waitMs` (a page without the boot script never will).
 */
export function askForEnginePort(clients: readonly Client[], waitMs: number): Promise<EnginePortMessage | null> {
  if (clients.length === 0) return Promise.resolve(null);
  return new Promise((resolve) => {
    let settled = false;
    const timer = setTimeout(() => settle(null), waitMs);
    const settle = (offer: EnginePortMessage | null) => {
      if (settled) {
        offer?.port.close();
        return;
      }
      settled = true;
      clearTimeout(timer);
      resolve(offer);
    };
    for (const client of clients) {
      const channel = new MessageChannel();
      channel.port1.onmessage = ({ data }: MessageEvent<EnginePortMessage>) => {
        channel.port1.close();
        if (data?.type === 'engine-port') settle(data);
      };
      client.postMessage({ type: 'need-port' } satisfies NeedPortMessage, [channel.port2]);
    }
  });
}
