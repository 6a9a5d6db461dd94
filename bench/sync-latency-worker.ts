// A bench worker playing one trainee's browser for the latency figure: a replica of its own (live),
// and, for the baseline, a plain API client of the hub. The sender sends through either; the
// listener long-polls either its replica or the hub. Times are absolute (timeOrigin + now), so
// the main thread can compare them across threads.
import { parentPort, workerData } from 'node:worker_threads';
import { apiRequest } from './api-client.ts';
import type { BenchUser } from './realm-fixture.ts';
import { newReplica, roomMessage } from './sync-realm.ts';

export interface LatencyJob {
  hubUrl: string;
  role: 'sender' | 'listener';
  /** The replica's user. */
  user: BenchUser;
  /** The user of the plain API client (the baseline). */
  apiUser: BenchUser;
}

export type Via = 'replica' | 'api';
export type LatencyCommand = { send: string; via: Via } | { expect: string; via: Via } | 'stop';

type Handle = (request: Request) => Promise<Response>;

const job = workerData as LatencyJob;
const port = parentPort!;
const now = (): number => performance.timeOrigin + performance.now();

/** A client's event queue on some `handle` (the replica's engine, or the hub over HTTP). */
class Listener {
  readonly #handle: Handle;
  readonly #user: BenchUser;
  #queue = '';
  #lastEventId = -1;

  constructor(handle: Handle, user: BenchUser) {
    this.#handle = handle;
    this.#user = user;
  }

  async register(): Promise<void> {
    const body = await json(this.#handle(apiRequest(this.#user, 'POST', '/register', { event_types: ['message'] })));
    this.#queue = body.queue_id as string;
    this.#lastEventId = body.last_event_id as number;
  }

  /** Resolves with the time the long-poll returned a message event with this content. */
  async nextMessage(content: string): Promise<number> {
    for (;;) {
      const body = await json(this.#handle(apiRequest(this.#user, 'GET', '/events', { queue_id: this.#queue, last_event_id: this.#lastEventId })));
      const at = now();
      const events = body.events as Array<{ id: number; type: string; message?: { content: string } }>;
      if (events.length > 0) this.#lastEventId = events.at(-1)!.id;
      if (events.some((e) => e.type === 'message' && e.message?.content.includes(content))) return at;
    }
  }
}

const replica = await newReplica(job.hubUrl, job.user);
if ((await replica.sync()) !== 'online') throw new Error(`a replica is offline: ${replica.lastError?.message}`);
replica.start();
const onReplica: Handle = (request) => replica.handle(request);
const onHub: Handle = (request) => {
  const url = new URL(request.url);
  return fetch(new Request(new URL(url.pathname + url.search, job.hubUrl), request));
};
const listeners = job.role === 'listener' ? { replica: new Listener(onReplica, job.user), api: new Listener(onHub, job.apiUser) } : null;
for (const listener of Object.values(listeners ?? {})) await listener.register();
port.postMessage('ready');

port.on('message', async (command: LatencyCommand) => {
  if (command === 'stop') {
    await replica.stop();
    replica.engine.close();
    port.postMessage('stopped');
    return;
  }
  if ('expect' in command) {
    const delivered = listeners![command.via].nextMessage(command.expect);
    // Let the long-poll reach its wait before the send starts.
    await new Promise((resolve) => setImmediate(resolve));
    port.postMessage('armed');
    port.postMessage({ delivered: await delivered });
    return;
  }
  const start = now();
  const sender = command.via === 'replica' ? { handle: onReplica, user: job.user } : { handle: onHub, user: job.apiUser };
  await json(sender.handle(apiRequest(sender.user, 'POST', '/messages', roomMessage(command.send))));
  port.postMessage({ sent: start });
});

async function json(pending: Promise<Response>): Promise<Record<string, unknown>> {
  const response = await pending;
  const body = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`answered ${response.status}: ${JSON.stringify(body)}`);
  return body;
}
