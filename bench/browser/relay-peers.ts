/**
 * The small GET's floors and peer, each in a frame of the bench page under a Service Worker of its
 * own (a registration's scope is the frame's URL, so the app's Service Worker keeps the bench
 * page): the bare Service Worker answering by itself (floor-service-worker.ts), the bare relay
 * to a SharedWorker (relay-floor-service-worker.ts), and MSW's browser worker answering from a
 * handler in its frame (msw-frame.ts). All three answer with `body`, the engine's own answer;
 * MSW's handler can also run `engine.handle()` in its frame. A frame's `fetch` is a fetch by that
 * frame, so it goes through the frame's Service Worker; the bench page times it on its own clock.
 */
import type { MswAnswer, MswFrameApi } from './msw-frame.ts';
import type { RelayFloorPortMessage, RelayFloorStart } from './relay-floor-protocol.ts';

/** What the relay floor's writes write: a send's flag rows (`?write`, relay-floor-worker.ts). */
export type RelayFloorSend = RelayFloorStart['send'];

const FLOOR_FRAME = '/bench/browser/floor-frame.html';
const RELAY_FLOOR_FRAME = '/bench/browser/relay-floor-frame.html';
const MSW_FRAME = '/bench/browser/msw-frame.html';

export interface RelayPeers {
  floor: typeof fetch;
  /** The runtime contract's path with nothing behind it: Service Worker -> port -> SharedWorker answering at once. */
  relayFloor: typeof fetch;
  msw: typeof fetch;
  /** How MSW's handler answers the next fetches. */
  mswAnswers(answer: MswAnswer): void;
}

export async function openRelayPeers(body: string, send: RelayFloorSend): Promise<RelayPeers> {
  const floorSw = await navigator.serviceWorker.register(`/bench-floor-sw.js?body=${encodeURIComponent(body)}`, { scope: FLOOR_FRAME });
  await activated(floorSw);
  const floor = await openFrame(FLOOR_FRAME);
  const relayFloorSw = await navigator.serviceWorker.register('/bench-relay-floor-sw.js', { scope: RELAY_FLOOR_FRAME });
  await activated(relayFloorSw);
  const relayFloor = await controlledFetch(await openFrame(RELAY_FLOOR_FRAME));
  const connectRelayFloor = relayFloorConnector(relayFloorSw, body, send);
  await connectRelayFloor();
  const msw = await openFrame(MSW_FRAME);
  const { benchMsw } = msw.contentWindow as unknown as { benchMsw: MswFrameApi };
  await benchMsw.start(body);
  return {
    floor: await controlledFetch(floor),
    relayFloor: async (input, init) => {
      const answer = await relayFloor(input, init);
      if (answer.status !== 503) return answer;
      // The browser stopped the idle Service Worker, and its port with it.
      await connectRelayFloor();
      return relayFloor(input, init);
    },
    msw: await controlledFetch(msw),
    mswAnswers: (answer) => {
      benchMsw.answer = answer;
    },
  };
}

/** Connects the floor's Service Worker to a SharedWorker of its own, each time with a new port. */
function relayFloorConnector(registration: ServiceWorkerRegistration, body: string, send: RelayFloorSend): () => Promise<void> {
  const worker = new SharedWorker(new URL('./relay-floor-worker.ts', import.meta.url), { type: 'module', name: 'offline-realm-bench-relay-floor' });
  return async () => {
    const relay = new MessageChannel();
    const started = new Promise((resolve) => (worker.port.onmessage = resolve));
    worker.port.postMessage({ body, port: relay.port2, send } satisfies RelayFloorStart, [relay.port2]);
    await started;
    const serviceWorker = registration.active;
    if (!serviceWorker) throw new Error('the relay floor Service Worker is not active');
    const connected = new MessageChannel();
    const inUse = new Promise((resolve) => (connected.port1.onmessage = resolve));
    serviceWorker.postMessage({ type: 'relay-floor-port', port: relay.port1, connected: connected.port2 } satisfies RelayFloorPortMessage, [relay.port1, connected.port2]);
    await inUse;
    connected.port1.close();
  };
}

function activated(registration: ServiceWorkerRegistration): Promise<void> {
  const worker = registration.installing ?? registration.waiting ?? registration.active;
  if (!worker) throw new Error('the floor Service Worker did not install');
  return new Promise((resolve) => {
    const check = () => {
      if (worker.state === 'activated') resolve();
    };
    worker.addEventListener('statechange', check);
    check();
  });
}

function openFrame(src: string): Promise<HTMLIFrameElement> {
  const frame = document.createElement('iframe');
  frame.src = src;
  frame.hidden = true;
  const loaded = new Promise<HTMLIFrameElement>((resolve) => frame.addEventListener('load', () => resolve(frame), { once: true }));
  document.body.append(frame);
  return loaded;
}

/** The frame's own `fetch`, once a Service Worker controls the frame. */
async function controlledFetch(frame: HTMLIFrameElement): Promise<typeof fetch> {
  const view = frame.contentWindow as (Window & typeof globalThis) | null;
  if (!view) throw new Error(`the frame ${frame.src} has no window`);
  const container = view.navigator.serviceWorker;
  if (!container.controller) await new Promise((resolve) => container.addEventListener('controllerchange', resolve, { once: true }));
  return view.fetch.bind(view);
}
