/** A comlink call or reply as the switch sees it: only `id` and the arguments' ports matter. */
interface RpcMessage {
  id?: string;
  argumentList?: { value?: unknown }[];
}

/**
 * A page's port to the engine that survives the engine moving to another tab (see
 * elected-engine.ts). The page's EngineConnection (comlink) talks to `page`; the switch forwards
 * to the current engine port and, when `connect` replaces it, sends the calls still unanswered
 * again: an engine that died takes its pending answers with it. A call that hands over a port
 * (attachRelay) cannot be sent twice, since the port went with it; the Service Worker asks for a
 * new one when its port stops answering.
 */
export class EnginePortSwitch {
  /** Give this end to the page's EngineConnection. */
  readonly page: MessagePort;
  readonly #toPage: MessagePort;
  /** Calls by id; null for one that carried a port and so cannot be sent again. */
  readonly #unanswered = new Map<string, RpcMessage | null>();
  /** Calls with ports made before the first engine port arrived (the others wait in #unanswered). */
  readonly #queued: RpcMessage[] = [];
  #engine: MessagePort | null = null;

  constructor() {
    const channel = new MessageChannel();
    this.page = channel.port1;
    this.#toPage = channel.port2;
    this.#toPage.onmessage = ({ data }: MessageEvent<RpcMessage>) => {
      const carriesPorts = portsIn(data).length > 0;
      if (data.id !== undefined) this.#unanswered.set(data.id, carriesPorts ? null : data);
      if (this.#engine) send(this.#engine, data);
      else if (carriesPorts) this.#queued.push(data);
    };
  }

  /** From now on messages go to `engine`; unanswered calls are sent to it again. */
  connect(engine: MessagePort): void {
    this.#engine?.close();
    this.#engine = engine;
    engine.onmessage = ({ data }: MessageEvent<RpcMessage>) => {
      if (data.id === undefined || !this.#unanswered.delete(data.id)) return;
      this.#toPage.postMessage(data);
    };
    for (const message of this.#queued.splice(0)) send(engine, message);
    for (const message of this.#unanswered.values()) if (message) send(engine, message);
  }
}

function portsIn(message: RpcMessage): MessagePort[] {
  return (message.argumentList ?? []).map((argument) => argument.value).filter((value) => value instanceof MessagePort);
}

function send(port: MessagePort, message: RpcMessage): void {
  port.postMessage(message, portsIn(message));
}
