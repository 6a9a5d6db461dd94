// Send -> a waiting long-poll returns, with 200 open queues: how long after the send itself.
import type { Engine } from '../src/engine/engine.ts';
import { apiRequest, expectOk, timedCall } from './api-client.ts';
import type { BenchRealm, BenchUser } from './realm-fixture.ts';
import { median, percentile } from './stats.ts';

const QUEUES = 200;
const WARMUP = 20;
const SAMPLES = 300;

export interface EventLatency {
  /** Poll answered, measured from the send's start, minus the send's own time. */
  overSend: { p50: number; p99: number };
  /** Poll answered, measured from the send's start. */
  fromSendStart: { p50: number };
  /** The send alone (start of handle() to its body read), the same sends. */
  send: { p50: number; p99: number };
  register: { p50: number };
  queues: number;
  samples: number;
}

interface OpenQueue {
  user: BenchUser;
  id: string;
  lastEventId: number;
}

export async function measureEventLatency(engine: Engine, realm: BenchRealm): Promise<EventLatency> {
  const { hot } = realm;
  const registerMs: number[] = [];
  const queues: OpenQueue[] = [];
  for (let i = 0; i < QUEUES; i++) {
    const user = realm.users[i % realm.users.length];
    const result = await timedCall(engine, apiRequest(user, 'POST', '/register', {}));
    expectOk(result, 'POST /register');
    registerMs.push(result.ms);
    const body = JSON.parse(result.body);
    queues.push({ user, id: body.queue_id, lastEventId: body.last_event_id });
  }

  const sender = hot.subscribers[1];
  const listener = queues.find((q) => q.user.id === hot.subscribers[3].id)!;
  const overSend: number[] = [];
  const fromSendStart: number[] = [];
  const send: number[] = [];
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    let answeredAt = 0;
    const poll = engine
      .handle(apiRequest(listener.user, 'GET', '/events', { queue_id: listener.id, last_event_id: listener.lastEventId }))
      .then((response) => {
        answeredAt = performance.now();
        return response.json();
      });
    // Let the poll reach its wait before the send starts.
    await new Promise((resolve) => setImmediate(resolve));
    const start = performance.now();
    const sent = await timedCall(
      engine,
      apiRequest(sender, 'POST', '/messages', { type: 'stream', to: hot.channelName, topic: 'latency bench', content: `ping ${i}` }),
    );
    expectOk(sent, 'POST /messages');
    const events = (await poll).events as Array<{ id: number; type: string }>;
    if (!events.some((e) => e.type === 'message')) throw new Error('the long-poll returned without the message event');
    listener.lastEventId = events[events.length - 1].id;
    if (i < WARMUP) continue;
    send.push(sent.ms);
    overSend.push(answeredAt - start - sent.ms);
    fromSendStart.push(answeredAt - start);
  }
  await drain(engine, queues);
  return {
    overSend: { p50: median(overSend), p99: percentile(overSend, 99) },
    fromSendStart: { p50: median(fromSendStart) },
    send: { p50: median(send), p99: percentile(send, 99) },
    register: { p50: median(registerMs) },
    queues: queues.length,
    samples: SAMPLES,
  };
}

/** Every client fetches and acknowledges what its queue holds, as live clients would. */
async function drain(engine: Engine, queues: OpenQueue[]): Promise<void> {
  for (const queue of queues) {
    const fetched = await timedCall(
      engine,
      apiRequest(queue.user, 'GET', '/events', { queue_id: queue.id, last_event_id: queue.lastEventId, dont_block: true }),
    );
    expectOk(fetched, 'GET /events');
    const events = JSON.parse(fetched.body).events as Array<{ id: number }>;
    if (events.length === 0) continue;
    queue.lastEventId = events[events.length - 1].id;
    const acknowledged = await timedCall(
      engine,
      apiRequest(queue.user, 'GET', '/events', { queue_id: queue.id, last_event_id: queue.lastEventId, dont_block: true }),
    );
    expectOk(acknowledged, 'GET /events');
  }
}
