// Two tabs of the bench page: one waits in `GET /events`, the other sends; the Node driver
// takes the time from the send's start in one tab to the poll's answer in the other.
import { expectOk } from '../api-client.ts';
import type { BenchRealm } from '../realm-fixture.ts';
import type { TimedSend } from './bench-protocol.ts';
import { apiFetch, timedFetch } from './page-fetch.ts';

/** Comparable between tabs of one browser, unlike `performance.now()` alone. */
const sharedClock = (): number => performance.timeOrigin + performance.now();

export class EventTab {
  readonly #realm: BenchRealm;
  #queue: { id: string; lastEventId: number } | null = null;
  #poll: Promise<number> | null = null;

  constructor(realm: BenchRealm) {
    this.#realm = realm;
  }

  /** The listener is a subscriber of the hot channel other than the sender. */
  async openQueue(): Promise<void> {
    const registered = await timedFetch(this.#listener(), 'POST', '/register', { event_types: ['message'] });
    expectOk(registered, 'POST /register');
    const body = JSON.parse(registered.body) as { queue_id: string; last_event_id: number };
    this.#queue = { id: body.queue_id, lastEventId: body.last_event_id };
  }

  startPoll(): void {
    const queue = this.#queue;
    if (!queue) throw new Error('openQueue() first');
    this.#poll = apiFetch(this.#listener(), 'GET', '/events', { queue_id: queue.id, last_event_id: queue.lastEventId }).then(async (response) => {
      const answeredAt = sharedClock();
      const body = await response.text();
      expectOk({ status: response.status, body }, 'GET /events');
      const events = JSON.parse(body).events as Array<{ id: number; type: string }>;
      if (!events.some((e) => e.type === 'message')) throw new Error('the long-poll returned without the message event');
      queue.lastEventId = events[events.length - 1].id;
      return answeredAt;
    });
  }

  finishPoll(): Promise<number> {
    if (!this.#poll) throw new Error('startPoll() first');
    return this.#poll;
  }

  async timedSend(n: number): Promise<TimedSend> {
    const { hot } = this.#realm;
    const startedAt = sharedClock();
    const sent = await timedFetch(hot.subscribers[1], 'POST', '/messages', { type: 'stream', to: hot.channelName, topic: 'browser latency bench', content: `ping ${n}` });
    expectOk(sent, 'POST /messages');
    return { startedAt, ms: sent.ms };
  }

  #listener() {
    return this.#realm.hot.subscribers[3];
  }
}
