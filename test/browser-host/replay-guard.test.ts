import { describe, expect, test } from 'vitest';
import type { RelayedRequest, RelayedResponse } from '../../src/browser-host/protocol/relay-protocol.ts';
import { REPLAY_WINDOW_MS, ReplayGuard } from '../../src/browser-host/engine-worker/replay-guard.ts';

function request(id: number, relayInstance: string, method = 'POST'): RelayedRequest {
  return {
    type: 'request',
    id,
    relayInstance,
    clientId: 'tab-1',
    method,
    url: 'http://app.test/api/v1/messages',
    headers: [['authorization', 'Basic b2xpdmlh']],
    body: method === 'GET' ? null : new TextEncoder().encode('type=stream&to=general&topic=t&content=hi').buffer,
  };
}

function answer(id: number, status = 200): RelayedResponse {
  return { type: 'response', id, status, statusText: '', headers: [], body: null };
}

/** Counts how often the guarded request really runs. */
function counter() {
  const runs: number[] = [];
  return {
    runs,
    run: (id: number, status: number) => async () => {
      runs.push(id);
      return answer(id, status);
    },
  };
}

const never = new AbortController().signal;

describe('the replay guard', () => {
  test('gives a mutation re-sent through a new Service Worker the first answer instead of running it again', async () => {
    const guard = new ReplayGuard();
    const { runs, run } = counter();

    const first = await guard.handle(request(1, 'sw-a'), never, run(1, 200));
    const resent = await guard.handle(request(7, 'sw-b'), never, run(7, 201));

    expect(runs).toEqual([1]);
    expect(first).toEqual(answer(1, 200));
    expect(resent).toEqual(answer(7, 200));
  });

  test('runs a repeat whose earlier copy was acknowledged by its Service Worker', async () => {
    const guard = new ReplayGuard();
    const { runs, run } = counter();

    await guard.handle(request(1, 'sw-a'), never, run(1, 200));
    guard.acknowledge('sw-a', 1);
    await guard.handle(request(2, 'sw-b'), never, run(2, 200));

    expect(runs).toEqual([1, 2]);
  });

  test('runs identical requests relayed by the same Service Worker every time', async () => {
    const guard = new ReplayGuard();
    const { runs, run } = counter();

    await guard.handle(request(1, 'sw-a'), never, run(1, 200));
    await guard.handle(request(2, 'sw-a'), never, run(2, 200));

    expect(runs).toEqual([1, 2]);
  });

  test('runs a mutation through a new Service Worker when only its body differs from the unanswered one', async () => {
    const guard = new ReplayGuard();
    const { runs, run } = counter();
    const other = { ...request(7, 'sw-b'), body: new TextEncoder().encode('type=stream&to=general&topic=t&content=bye').buffer };

    await guard.handle(request(1, 'sw-a'), never, run(1, 200));
    const second = await guard.handle(other, never, run(7, 201));

    expect(runs).toEqual([1, 7]);
    expect(second).toEqual(answer(7, 201));
  });

  test('gives each of two unanswered mutations of the same length its own answer when both are re-sent', async () => {
    const guard = new ReplayGuard();
    const { runs, run } = counter();
    const withContent = (id: number, relayInstance: string, content: string): RelayedRequest => ({
      ...request(id, relayInstance),
      body: new TextEncoder().encode(`type=stream&to=general&topic=t&content=${content}`).buffer,
    });

    await guard.handle(withContent(1, 'sw-a', 'one'), never, run(1, 200));
    await guard.handle(withContent(2, 'sw-a', 'two'), never, run(2, 201));
    const resentFirst = await guard.handle(withContent(7, 'sw-b', 'one'), never, run(7, 500));
    const resentSecond = await guard.handle(withContent(8, 'sw-b', 'two'), never, run(8, 500));

    expect(runs).toEqual([1, 2]);
    expect(resentFirst).toEqual(answer(7, 200));
    expect(resentSecond).toEqual(answer(8, 201));
  });

  test('runs a re-send again once the replay window has passed', async () => {
    let now = 1_000;
    const guard = new ReplayGuard(() => now);
    const { runs, run } = counter();

    await guard.handle(request(1, 'sw-a'), never, run(1, 200));
    now += REPLAY_WINDOW_MS + 1;
    await guard.handle(request(2, 'sw-b'), never, run(2, 200));

    expect(runs).toEqual([1, 2]);
  });

  test('aborts an orphaned GET when it is re-sent, and runs the new copy', async () => {
    const guard = new ReplayGuard();
    let orphanSignal: AbortSignal | undefined;
    const orphan = guard.handle(request(1, 'sw-a', 'GET'), never, (signal) => {
      orphanSignal = signal;
      return new Promise((resolve) => signal.addEventListener('abort', () => resolve(answer(1, 200))));
    });
    while (!orphanSignal) await new Promise((resolve) => setTimeout(resolve, 1));

    const fresh = await guard.handle(request(2, 'sw-b', 'GET'), never, async () => answer(2, 200));

    expect(orphanSignal?.aborted).toBe(true);
    expect(await orphan).toEqual(answer(1, 200));
    expect(fresh).toEqual(answer(2, 200));
  });
});
