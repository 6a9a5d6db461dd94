/**
 * The small GET's floor and peer, each in a frame of the bench page under a Service Worker of its
 * own (a registration's scope is the frame's URL, so the app's Service Worker keeps the bench
 * page): the bare Service Worker answering by itself (floor-service-worker.ts), and MSW's
 * browser worker answering from a handler in its frame (msw-frame.ts). Both answer with `body`,
 * the engine's own answer; MSW's handler can also run `engine.handle()` in its frame. A frame's `fetch` is a fetch by that frame, so it goes through the
 * frame's Service Worker; the bench page times it on its own clock.
 */
import type { MswAnswer, MswFrameApi } from './msw-frame.ts';

const FLOOR_FRAME = '/bench/browser/floor-frame.html';
const MSW_FRAME = '/bench/browser/msw-frame.html';

export interface RelayPeers {
  floor: typeof fetch;
  msw: typeof fetch;
  /** How MSW's handler answers the next fetches. */
  mswAnswers(answer: MswAnswer): void;
}

export async function openRelayPeers(body: string): Promise<RelayPeers> {
  const floorSw = await navigator.serviceWorker.register(`/bench-floor-sw.js?body=${encodeURIComponent(body)}`, { scope: FLOOR_FRAME });
  await activated(floorSw);
  const floor = await openFrame(FLOOR_FRAME);
  const msw = await openFrame(MSW_FRAME);
  const { benchMsw } = msw.contentWindow as unknown as { benchMsw: MswFrameApi };
  await benchMsw.start(body);
  return {
    floor: await controlledFetch(floor),
    msw: await controlledFetch(msw),
    mswAnswers: (answer) => {
      benchMsw.answer = answer;
    },
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
