/**
 * Messages of the fallback for browsers without SharedWorker (Chrome on Android): one tab, the
 * leader, runs the engine in a dedicated worker, and the other tabs connect to that worker.
 * A MessagePort cannot cross a BroadcastChannel, so a follower's port travels through the
 * Service Worker, which asks the open tabs which one leads. (The lock manager does name each
 * lock's holder, but Chromium's `LockInfo.clientId` is not the Service Worker's `Client.id`.)
 */

/** Held by the leader tab for as long as it lives; every other tab waits for it. */
export const LEADER_LOCK = 'offline-realm-leader';

/** On which a tab that has just become leader tells the others to reconnect. */
export const LEADER_CHANNEL = 'offline-realm-leader';

/** Page -> Service Worker: pass this port on to the leader's engine. */
export interface ConnectEngineMessage {
  type: 'connect-engine';
  /** Transferred; its other end is the sending page's connection to the engine. */
  port: MessagePort;
}

/** Service Worker -> every page: do you lead? (reply on `event.ports[0]` with a LeaderAnswer). */
export interface LeaderQueryMessage {
  type: 'leader-query';
}

export interface LeaderAnswer {
  type: 'leader-answer';
  leads: boolean;
}

/** Service Worker -> leader page, and leader page -> its dedicated worker: a new engine connection. */
export interface EngineConnectMessage {
  type: 'engine-connect';
  /** Transferred; the engine serves it as a SharedWorker serves a new `connect`. */
  port: MessagePort;
}

/** Leader page -> every other tab, on LEADER_CHANNEL. */
export interface LeaderChangedMessage {
  type: 'leader-changed';
}
