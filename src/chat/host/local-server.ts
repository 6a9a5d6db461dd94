/**
 * What the page offers the app when the server runs in this very browser: realm tools for
 * trainers and demos, the demo accounts, and the server's own request log. The app only sees
 * this interface; the page (src/pages/) implements it with the browser host. Against another
 * server there is none, and the app is a plain API client.
 */
export interface LocalServer {
  /** Resolves once the in-browser server answers /api/v1. */
  ready: Promise<void>;
  /** Where the engine runs, for the indicator (e.g. "a SharedWorker shared by every tab"). */
  where: string;
  /** Accounts of the realm's scenario that have passwords: one "Log in as" button each (answers once the server is ready). */
  demoAccounts(): Promise<DemoAccount[]>;
  scenarios: { name: string; title: string }[];
  currentScenario(): string;
  /** Replaces the whole realm; every tab's event queue is dropped and re-registers. */
  loadScenario(name: string): Promise<void>;
  /** Downloads the realm as a file; returns a one-line summary. */
  exportRealm(): Promise<string>;
  importRealm(file: File): Promise<void>;
  /** Every tab's API requests as the engine saw them; returns the unsubscribe function. */
  onRequest(listener: (entry: ServerRequestEntry) => void): () => void;
}

export interface DemoAccount {
  email: string;
  password: string;
  fullName: string;
}

export interface ServerRequestEntry {
  method: string;
  path: string;
  status: number;
  ms: number;
}
