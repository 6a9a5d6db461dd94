import type { RealmArchive } from '../../engine/realm-archive/realm-archive.ts';
import type { RealmSummary } from './relay-protocol.ts';

/** What `hello` answers, at once (`waitReady` resolves once the engine has a realm). */
export interface EngineHello {
  lockName: string;
}

/**
 * A scenario for the engine to load: one of the site's `/scenarios/` by name (the app's, with
 * the realm the build made beside it), the JSON file at an absolute URL, or the scenario itself.
 */
export type ScenarioSource = { name: string } | { url: string } | { scenario: unknown };

/** `joinHub`'s answer: done (or already so), or the page must ask before the local realm is deleted. */
export type JoinAnswer = 'joined' | 'needs-consent';

/** A replica's state for pages: its hub and `data-sync`'s word (null until someone has logged in). */
export interface ReplicaState {
  hubUrl: string;
  status: string | null;
}

/** Where the engine worker posts each new `data-sync` word of a replica. */
export const SYNC_STATUS_CHANNEL = 'offline-realm-sync-status';

/**
 * What a page may ask of the engine worker on the page's own port, through comlink
 * (`expose` in engine-worker/engine-host.ts, `wrap` in page/engine-connection.ts).
 */
export interface EngineControl {
  hello(): Promise<EngineHello>;
  /**
   * Resolves once the engine has a realm. On an empty database it first loads `whenEmpty`: the
   * page that starts the engine chooses the first realm (the app its demo, a package user theirs).
   */
  waitReady(whenEmpty: ScenarioSource): Promise<void>;
  /** Replaces the realm (or makes the first) with a scenario; rejects, changing nothing, if it cannot. */
  loadScenario(source: ScenarioSource): Promise<void>;
  realmSummary(): Promise<RealmSummary>;
  /** The whole realm, every table, for a file the user keeps. */
  exportRealm(): Promise<RealmArchive>;
  /** Replaces the realm with an archive's; rejects (changing nothing) if the archive is faulty. */
  importRealm(archive: unknown): Promise<void>;
  /**
   * Makes this browser a replica of the hub at `hubUrl` (`/?sync=`). Where a local realm, or a
   * replica of another hub, would be deleted, answers `needs-consent` and changes nothing unless
   * `replace` is true. A replica of the same hub stays as it is.
   */
  joinHub(hubUrl: string, replace: boolean): Promise<JoinAnswer>;
  /** The replica this browser is, or null when it holds a realm of its own. */
  replicaState(): Promise<ReplicaState | null>;
  /** Takes one end of a channel whose other end goes to the Service Worker (transferred). */
  attachRelay(port: MessagePort): void;
}
