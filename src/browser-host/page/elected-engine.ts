import { EngineConnection } from './engine-connection.ts';
import { EnginePortSwitch } from './engine-port-switch.ts';
import { electLeader } from './leader-election.ts';
import {
  type ConnectEngineMessage,
  type EngineConnectMessage,
  LEADER_CHANNEL,
  type LeaderAnswer,
  type LeaderChangedMessage,
  type LeaderQueryMessage,
} from '../protocol/leader-protocol.ts';

/**
 * The engine where SharedWorker does not exist (Chrome on Android): the tab elected leader runs
 * it in a dedicated worker, and every other tab connects to that worker through the Service
 * Worker. When the leader closes, its worker dies with it; the next tab takes the lock, starts
 * the engine over the same IndexedDB and tells the others to reconnect. In-memory event queues
 * are lost, as after any engine restart. `startWorker` starts the engine worker file as a
 * dedicated worker (see engine-start.ts).
 */
export function startElectedEngine(startWorker: () => Worker): EngineConnection {
  const link = new EnginePortSwitch();
  /** Set once this tab leads. */
  let engineWorker: Worker | null = null;

  // The Service Worker asks which tab leads, then sends it followers' ports (leader-broker.ts).
  navigator.serviceWorker.addEventListener('message', (event: MessageEvent<LeaderQueryMessage | EngineConnectMessage>) => {
    const { data } = event;
    if (data?.type === 'leader-query') {
      event.ports[0]?.postMessage({ type: 'leader-answer', leads: engineWorker !== null } satisfies LeaderAnswer);
    } else if (data?.type === 'engine-connect') {
      if (engineWorker) handOver(engineWorker, data.port);
      else data.port.close();
    }
  });
  const leaders = new BroadcastChannel(LEADER_CHANNEL);
  leaders.onmessage = ({ data }: MessageEvent<LeaderChangedMessage>) => {
    if (data?.type === 'leader-changed' && !engineWorker) link.connect(portFromLeader());
  };

  const lead = () => {
    engineWorker = startWorker();
    const channel = new MessageChannel();
    handOver(engineWorker, channel.port2);
    link.connect(channel.port1);
    leaders.postMessage({ type: 'leader-changed' } satisfies LeaderChangedMessage);
  };
  void electLeader(navigator.locks, lead).then((leadsNow) => {
    if (!leadsNow) link.connect(portFromLeader());
  });
  return new EngineConnection(link.page);
}

function handOver(worker: Worker, port: MessagePort): void {
  worker.postMessage({ type: 'engine-connect', port } satisfies EngineConnectMessage, [port]);
}

/** A port whose other end the Service Worker passes to the leader (see leader-broker.ts). */
function portFromLeader(): MessagePort {
  const channel = new MessageChannel();
  void navigator.serviceWorker.ready.then(({ active }) => {
    active?.postMessage({ type: 'connect-engine', port: channel.port2 } satisfies ConnectEngineMessage, [channel.port2]);
  });
  return channel.port1;
}
