import { type Remote, transfer, wrap } from 'comlink';
import type { RealmArchive } from '../../engine/realm-archive/realm-archive.ts';
import type { EngineControl, EngineHello, JoinAnswer, ReplicaState, ScenarioSource } from '../protocol/engine-control.ts';
import type { RealmSummary } from '../protocol/relay-protocol.ts';

/** A page's own connection to the engine worker: the calls of EngineControl, over comlink. */
export class EngineConnection implements EngineControl {
  readonly #engine: Remote<EngineControl>;

  constructor(port: MessagePort) {
    this.#engine = wrap<EngineControl>(port);
  }

  hello(): Promise<EngineHello> {
    return this.#engine.hello();
  }

  waitReady(whenEmpty: ScenarioSource): Promise<void> {
    return this.#engine.waitReady(whenEmpty);
  }

  loadScenario(source: ScenarioSource): Promise<void> {
    return this.#engine.loadScenario(source);
  }

  realmSummary(): Promise<RealmSummary> {
    return this.#engine.realmSummary();
  }

  exportRealm(): Promise<RealmArchive> {
    return this.#engine.exportRealm();
  }

  importRealm(archive: unknown): Promise<void> {
    return this.#engine.importRealm(archive);
  }

  joinHub(hubUrl: string, replace: boolean): Promise<JoinAnswer> {
    return this.#engine.joinHub(hubUrl, replace);
  }

  replicaState(): Promise<ReplicaState | null> {
    return this.#engine.replicaState();
  }

  /** A MessagePort crosses only in the transfer list, so this call cannot be the bare proxy's. */
  attachRelay(port: MessagePort): void {
    void this.#engine.attachRelay(transfer(port, [port]));
  }
}
