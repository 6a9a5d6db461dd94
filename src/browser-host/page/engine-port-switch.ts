import type { EngineToPage, PageToEngine } from '../protocol/relay-protocol.ts';

/**
 * A page's port to the engine that survives the engine moving to another tab (see
 * elected-engine.ts). The page's EngineConnection talks to `page`; the switch forwards to the
 * current engine port and, when `connect` replaces it, sends the calls still unanswered again:
 * an engine that died takes its pending answers with it.
 */
export class EnginePortSwitch {
  /** Give this end to the page's EngineConnection. */
  readonly page: MessagePort;
  readonly #toPage: MessagePort;
  readonly #unanswered = new Map<number, PageToEngine>();
  /** Relay ports handed over before the first engine port arrived (calls wait in #unanswered). */
  readonly #queued: PageToEngine[] = [];
  #engine: MessagePort | null = null;

  constructor() {
    const channel = new MessageChannel();
    this.page = channel.port1;
    this.#toPage = channel.port2;
    this.#toPage.onmessage = ({ data }: MessageEvent<PageToEngine>) => {
      if ('replyId' in data) this.#unanswered.set(data.replyId, data);
      if (this.#engine) send(this.#engine, data);
      else if (!('replyId' in data)) this.#queued.push(data);
    };
  }

  /** From now on messages go to `engine`; unanswered calls are sent to it again. */
  connect(engine: MessagePort): void {
    this.#engine?.close();
    this.#engine = engine;
    engine.onmessage = ({ data }: MessageEvent<EngineToPage>) => {
      if (!this.#unanswered.delete(data.replyId)) return;
      this.#toPage.postMessage(data);
    };
    for (const message of this.#queued.splice(0)) send(engine, message);
    for (const message of this.#unanswered.values()) send(engine, message);
  }
}

function send(port: MessagePort, message: PageToEngine): void {
  port.postMessage(message, message.type === 'attach-relay' ? [message.port] : []);
}
