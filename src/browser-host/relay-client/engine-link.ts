import { answerIsKept, type RelayedAck, type RelayedRequest, type RelayedResponse } from '../protocol/relay-protocol.ts';

/**
 * One port from the Service Worker to the engine, with the requests waiting on it. A link that
 * has been replaced stays open until its last reply has come back (a long-poll may still be
 * pending on it), then closes itself.
 */
export class EngineLink {
  readonly port: MessagePort;
  readonly lockName: string;
  readonly #waiting = new Map<number, { settle: (response: RelayedResponse | null) => void; kept: boolean }>();
  #retired = false;

  constructor(port: MessagePort, lockName: string, relayInstance: string) {
    this.port = port;
    this.lockName = lockName;
    port.onmessage = ({ data }: MessageEvent<RelayedResponse>) => {
      const waiting = this.#waiting.get(data.id);
      this.#waiting.delete(data.id);
      waiting?.settle(data);
      // Only a kept answer (a mutation's) needs the engine told that it arrived; after the
      // settle, so the page's Response is not behind this message.
      if (!waiting || waiting.kept) port.postMessage({ type: 'ack', id: data.id, relayInstance } satisfies RelayedAck);
      this.#closeIfDone();
    };
  }

  /** Sends the request; resolves with the reply, or null when `timeoutMs` passes or `signal` aborts. */
  send(request: RelayedRequest, timeoutMs: number, signal: AbortSignal): Promise<RelayedResponse | null> {
    return new Promise((resolve) => {
      const finish = (response: RelayedResponse | null) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        resolve(response);
      };
      const giveUp = () => {
        if (!this.#waiting.delete(request.id)) return;
        this.port.postMessage({ type: 'abort', id: request.id });
        finish(null);
        this.#closeIfDone();
      };
      const onAbort = () => giveUp();
      const timer = setTimeout(giveUp, timeoutMs);
      signal.addEventListener('abort', onAbort, { once: true });
      this.#waiting.set(request.id, { settle: finish, kept: answerIsKept(request.method) });
      this.port.postMessage(request, request.body ? [request.body] : []);
    });
  }

  /** No new requests go here; the port closes once the pending ones are answered. */
  retire(): void {
    this.#retired = true;
    this.#closeIfDone();
  }

  /** The engine behind it is gone: nothing pending will ever be answered. */
  fail(): void {
    for (const { settle } of this.#waiting.values()) settle(null);
    this.#waiting.clear();
    this.retire();
  }

  #closeIfDone(): void {
    if (this.#retired && this.#waiting.size === 0) this.port.close();
  }
}
