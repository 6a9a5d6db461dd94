import type { RealmArchive } from '../../engine/realm-archive/realm-archive.ts';
import type { RealmSummary } from './relay-protocol.ts';

/** What `hello` answers, at once (`waitReady` resolves once the engine has a realm). */
export interface EngineHello {
  lockName: string;
}

/**
 * What a page may ask of the engine worker on the page's own port, through comlink
 * (`expose` in engine-worker/engine-host.ts, `wrap` in page/engine-connection.ts).
 */
export interface EngineControl {
  hello(): Promise<EngineHello>;
  /** Resolves once the engine has a realm (the first visit loads the demo scenario). */
  waitReady(): Promise<void>;
  /** Replaces the realm with /scenarios/NAME.json; rejects (changing nothing) if it cannot. */
  loadScenario(name: string): Promise<void>;
  realmSummary(): Promise<RealmSummary>;
  /** The whole realm, every table, for a file the user keeps. */
  exportRealm(): Promise<RealmArchive>;
  /** Replaces the realm with an archive's; rejects (changing nothing) if the archive is faulty. */
  importRealm(archive: unknown): Promise<void>;
  /** Takes one end of a channel whose other end goes to the Service Worker (transferred). */
  attachRelay(port: MessagePort): void;
}
