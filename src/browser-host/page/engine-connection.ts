import type { RealmArchive } from '../../engine/realm-archive.ts';
import type { EngineHello, EngineToPage, PageToEngine, RealmSummary } from '../protocol/relay-protocol.ts';

type Call = PageToEngine extends infer M ? (M extends { replyId: number } ? Omit<M, 'replyId'> : never) : never;

/** A page's own connection to the engine's SharedWorker: calls answered by id. */
export class EngineConnection {
  readonly #port: MessagePort;
  readonly #waiting = new Map<number, (message: EngineToPage) => void>();
  #nextId = 1;

  constructor(port: MessagePort) {
    this.#port = port;
    port.onmessage = ({ data }: MessageEvent<EngineToPage>) => {
      const settle = this.#waiting.get(data.replyId);
      this.#waiting.delete(data.replyId);
      settle?.(data);
    };
  }

  hello(): Promise<EngineHello> {
    return this.#call({ type: 'hello' }) as Promise<EngineHello>;
  }

  /** Resolves once the engine has a realm (the first visit loads the demo scenario). */
  async waitReady(): Promise<void> {
    await this.#call({ type: 'wait-ready' });
  }

  /** Replaces the realm with /scenarios/NAME.json; rejects (changing nothing) if it cannot. */
  async loadScenario(name: string): Promise<void> {
    await this.#call({ type: 'load-scenario', name });
  }

  realmSummary(): Promise<RealmSummary> {
    return this.#call({ type: 'realm-summary' }) as Promise<RealmSummary>;
  }

  /** The whole realm, every table, for a file the user keeps. */
  exportRealm(): Promise<RealmArchive> {
    return this.#call({ type: 'export-realm' }) as Promise<RealmArchive>;
  }

  /** Replaces the realm with an archive's; rejects (changing nothing) if the archive is faulty. */
  async importRealm(archive: unknown): Promise<void> {
    await this.#call({ type: 'import-realm', archive });
  }

  /** Hands the engine one end of a channel whose other end goes to the Service Worker. */
  attachRelay(port: MessagePort): void {
    this.#port.postMessage({ type: 'attach-relay', port } satisfies PageToEngine, [port]);
  }

  #call(call: Call): Promise<unknown> {
    const replyId = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#waiting.set(replyId, (message) => {
        if (message.ok) resolve(message.value);
        else reject(new Error(message.error));
      });
      this.#port.postMessage({ ...call, replyId } as PageToEngine);
    });
  }
}
