/**
 * The SharedWorker end of the relay's floor (relay-floor-service-worker.ts): answers every
 * relayed request with the fixed body it was started with, its bytes transferred, as the engine
 * worker hands over a JSON answer. A request whose URL asks `?write` first writes a send's flag
 * rows (bench/flag-row-layouts.ts, in a database of its own) and tells how long that took in
 * `X-Bench-Write-Ms`: the floor of a fetch whose answer follows an IndexedDB commit.
 */
import { openFlagLayouts, type FlagLayouts } from '../flag-row-layouts.ts';
import type { RelayFloorAnswer, RelayFloorRequest, RelayFloorStart } from './relay-floor-protocol.ts';

const scope = self as unknown as SharedWorkerGlobalScope;
/** Ids far above any realm's, as the bench worker's flag rows take. */
const FIRST_WRITTEN_ID = 2_000_000_000;
let layouts: FlagLayouts | null = null;
let written = 0;

scope.addEventListener('connect', (event: MessageEvent) => {
  const control = event.ports[0];
  control.onmessage = ({ data: start }: MessageEvent<RelayFloorStart>) => {
    const bytes = new TextEncoder().encode(start.body);
    const answer = (id: number, headers: [string, string][]) => {
      const body = bytes.slice().buffer;
      start.port.postMessage({ id, status: 200, headers, body } satisfies RelayFloorAnswer, [body]);
    };
    start.port.onmessage = ({ data: request }: MessageEvent<RelayFloorRequest>) => {
      if (!new URL(request.url).searchParams.has('write')) return answer(request.id, [['Content-Type', 'application/json']]);
      layouts ??= openFlagLayouts({ indexedDB, IDBKeyRange, name: 'bench-relay-floor-rows' });
      const message = { ...start.send.place, id: FIRST_WRITTEN_ID + written++ };
      void layouts.write('now', message, start.send.recipients).then((ms) =>
        answer(request.id, [
          ['Content-Type', 'application/json'],
          ['X-Bench-Write-Ms', String(ms)],
        ]),
      );
    };
    control.postMessage('started');
  };
});
