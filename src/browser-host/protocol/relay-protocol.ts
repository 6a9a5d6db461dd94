/**
 * Messages between the three parties of the browser host: pages, the Service Worker (which
 * intercepts `/api/v1/*` and `/user_uploads/*`) and the SharedWorker (which runs the engine). Everything crosses a
 * MessagePort, so every shape here is structured-cloneable.
 */

/** The API's prefix. */
export const API_PATH_PREFIX = '/api/v1/';

/**
 * Where the Service Worker answers (runtime contract, section 4): the API, and the uploaded
 * files at `/user_uploads/`; everything else passes through untouched.
 */
export const RELAYED_PATH_PREFIXES = [API_PATH_PREFIX, '/user_uploads/'] as const;

export const isRelayedPath = (pathname: string): boolean => RELAYED_PATH_PREFIXES.some((prefix) => pathname.startsWith(prefix));

/** A request as the Service Worker relays it to the engine. */
export interface RelayedRequest {
  type: 'request';
  /** Unique per relay port; the reply carries it back. */
  id: number;
  /** The Service Worker instance that relayed it (new after every restart of the SW). */
  relayInstance: string;
  /** The page (or worker) that issued the fetch; '' when the browser gave none. */
  clientId: string;
  method: string;
  url: string;
  headers: [string, string][];
  body: ArrayBuffer | null;
}

/**
 * Whether the engine's replay guard keeps a request's answer for a re-send (a mutation's): that
 * answer's body must not be transferred away when it is posted, and the Service Worker
 * acknowledges its arrival.
 */
export function answerIsKept(method: string): boolean {
  return method !== 'GET' && method !== 'HEAD';
}

/** The fetch was abandoned (e.g. its tab closed): release a pending long-poll. */
export interface RelayedAbort {
  type: 'abort';
  id: number;
}

/** The Service Worker got the answer to `id` (see replay-guard.ts). */
export interface RelayedAck {
  type: 'ack';
  id: number;
  relayInstance: string;
}

export interface RelayedResponse {
  type: 'response';
  id: number;
  status: number;
  statusText: string;
  headers: [string, string][];
  body: ArrayBuffer | null;
}

/** Service Worker -> page: "give me a port to the engine" (reply on `event.ports[0]`). */
export interface NeedPortMessage {
  type: 'need-port';
}

/** Page -> Service Worker: take control of me (a hard reload leaves a page uncontrolled). */
export interface ClaimMessage {
  type: 'claim';
}

/**
 * Page -> Service Worker, once its server is ready: cache whatever of the app shell is not
 * cached yet. A first install does not wait for the download (it would hold the first visit
 * back); the worker answers `true` on the port once the whole shell is cached.
 */
export interface CacheShellMessage {
  type: 'cache-shell';
}

/** Page -> Service Worker, on the reply port of a `need-port`, or unasked after boot. */
export interface EnginePortMessage {
  type: 'engine-port';
  /** Transferred; its other end belongs to the SharedWorker. */
  port: MessagePort;
  /** The Web Lock the SharedWorker holds while it lives (see engine-lock.ts). */
  lockName: string;
}

/** What `realmSummary` answers: enough for the server console. */
export interface RealmSummary {
  realmName: string;
  host: string;
  users: { id: number; email: string; fullName: string; role: number; isBot: boolean; apiKey: string }[];
}

/** The BroadcastChannel on which the engine publishes one entry per API request. */
export const REQUEST_LOG_CHANNEL = 'offline-realm-request-log';
