// A bench worker playing one trainee's browser for the latency figure: a replica of its own (live),
// and, for the baseline, a plain API client of the hub. The sender sends through either; the
// listener long-polls either its replica or the hub. For the floor, the sender first sends on an
// engine of its own with no sync (A's local write), then through the hub's API; the listener,
// once its long-poll on the hub has the message, writes it with its flag row into an engine of
// its own (B's write). Times are absolute (timeOrigin + now), so the main thread can compare them
// across threads.
import { parentPort, workerData } from 'node:worker_threads';
import { apiRequest } from './api-client.ts';
import type { BenchUser } from './realm-fixture.ts';
import { newReplica, roomEngine, roomMessage } from './sync-realm.ts';
import { userMessageRow } from '../src/engine/storage/flags.ts';

export interface LatencyJob {
  hubUrl: string;
  role: 'sender' | 'listener';
  /** The replica's user. */
  user: BenchUser;
  /** The user of the plain API client (the baseline). */
  apiUser: BenchUser;
  /** The room's trainees, for the floor's engine. */
  trainees: number;
}

/** `api-to-replica`: the send through the hub's API, the listener on its replica (the hub's side of the replica's path alone). */
export type Via = 'replica' | 'api' | 'floor' | 'api-to-replica';
export type LatencyCommand = { send: string; via: Via } | { expect: string; via: Via } | 'stop';

/** Where each path's message is sent (by A's user on its replica, or by the API user on the hub) and where its listener long-polls. */
const PATHS: Record<Via, { sendsOn: 'replica' | 'hub'; listensOn: 'replica' | 'hub' }> = {
  replica: { sendsOn: 'replica', listensOn: 'replica' },
  api: { sendsOn: 'hub', listensOn: 'hub' },
  // Also A's local write before the send and B's write after the long-poll.
  floor: { sendsOn: 'hub', listensOn: 'hub' },
  'api-to-replica': { sendsOn: 'hub', listensOn: 'replica' },
};

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
const listeners = job.role === 'listener' ? { replica: new Listener(onReplica, job.user), hub: new Listener(onHub, job.apiUser) } : null;
for (const listener of Object.values(listeners ?? {})) await listener.register();
const floor = await roomEngine(job.trainees);
const floorUser = floor.users.find((u) => u.email === job.user.email)!;
const onFloor: Handle = (request) => floor.engine.handle(request);
// B's write copies a message the floor's engine stored itself, under new ids.
await json(onFloor(apiRequest(floorUser, 'POST', '/messages', roomMessage('the floor write template'))));
const template = (await floor.engine.db.messages.orderBy('id').last())!;
let floorWrites = 0;
port.postMessage('ready');

/** The least a replica can do with a message from the hub before showing it: store it and its reader's flag row. */
async function floorWrite(content: string): Promise<void> {
  const { db } = floor.engine;
  const message = { ...template, id: 1_000_000 + floorWrites++, content };
  await db.transaction('rw', db.messages, db.user_messages, async () => {
    await db.messages.add(message);
    await db.user_messages.add(userMessageRow(floorUser.id, message, 0));
  });
}

port.on('message', async (command: LatencyCommand) => {
  if (command === 'stop') {
    await replica.stop();
    replica.engine.close();
    floor.engine.close();
    port.postMessage('stopped');
    return;
  }
  if ('expect' in command) {
    const heard = listeners![PATHS[command.via].listensOn].nextMessage(command.expect);
    const delivered =
      command.via === 'floor'
        ? heard.then(async () => {
            await floorWrite(command.expect);
            return now();
          })
        : heard;
    // Let the long-poll reach its wait before the send starts.
    await new Promise((resolve) => setImmediate(resolve));
    port.postMessage('armed');
    port.postMessage({ delivered: await delivered });
    return;
  }
  const start = now();
  if (command.via === 'floor') await json(onFloor(apiRequest(floorUser, 'POST', '/messages', roomMessage(command.send))));
  const sender = PATHS[command.via].sendsOn === 'replica' ? { handle: onReplica, user: job.user } : { handle: onHub, user: job.apiUser };
  await json(sender.handle(apiRequest(sender.user, 'POST', '/messages', roomMessage(command.send))));
  port.postMessage({ sent: start });
});

async function json(pending: Promise<Response>): Promise<Record<string, unknown>> {
  const response = await pending;
  const body = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`answered ${response.status}: ${JSON.stringify(body)}`);
  return body;
}
