// Messages of the relay's floor (relay-floor-service-worker.ts, relay-floor-worker.ts), shaped
// like the app's relay protocol (src/browser-host/protocol/relay-protocol.ts).
import type { MessagePlace } from '../../src/engine/storage/flags.ts';

/** The bench page to the floor's Service Worker: the port to the SharedWorker. */
export interface RelayFloorPortMessage {
  type: 'relay-floor-port';
  port: MessagePort;
  /** Told once the port is in use. */
  connected: MessagePort;
}

/** The bench page to the floor's SharedWorker: answer on `port` with `body`; a write writes `send`'s flag rows. */
export interface RelayFloorStart {
  body: string;
  port: MessagePort;
  send: { place: Omit<MessagePlace, 'id'>; recipients: number[] };
}

export interface RelayFloorRequest {
  id: number;
  method: string;
  url: string;
  headers: [string, string][];
  body: ArrayBuffer | null;
}

export interface RelayFloorAnswer {
  id: number;
  status: number;
  headers: [string, string][];
  body: ArrayBuffer;
}
