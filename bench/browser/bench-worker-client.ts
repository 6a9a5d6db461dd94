// The bench page's connection to the bench SharedWorker: calls answered by id.
import type { BenchCall, BenchCallMessage, BenchReply } from './bench-protocol.ts';

export class BenchWorkerClient {
  readonly #port: MessagePort;
  readonly #waiting = new Map<number, (reply: BenchReply) => void>();
  #nextId = 1;

  constructor() {
    // The options must stay a literal: the bundler reads them to build the worker.
    const worker = new SharedWorker(new URL('./bench-worker.ts', import.meta.url), { type: 'module', name: 'offline-realm-bench' });
    this.#port = worker.port;
    this.#port.onmessage = ({ data }: MessageEvent<BenchReply>) => {
      const settle = this.#waiting.get(data.replyId);
      this.#waiting.delete(data.replyId);
      settle?.(data);
    };
  }

  call<T>(call: BenchCall): Promise<T> {
    const replyId = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#waiting.set(replyId, (reply) => (reply.ok ? resolve(reply.value as T) : reject(new Error(reply.error))));
      this.#port.postMessage({ ...call, replyId } satisfies BenchCallMessage);
    });
  }

  /** The bare round trip page -> SharedWorker -> page, in milliseconds. */
  async ping(): Promise<number> {
    const start = performance.now();
    await this.call({ type: 'ping' });
    return performance.now() - start;
  }
}
