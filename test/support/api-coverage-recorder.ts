/**
 * Records, while the Node tests run, which route each API request reached, its status, and
 * the event types delivered while it was the newest request in flight. Active only when
 * API_COVERAGE_LOG names a file (`npm run api-coverage` sets it); the records feed
 * docs/API-COVERAGE.md, so the table says what the tests really exercised.
 */
import { appendFileSync } from 'node:fs';
import { Engine } from '../../src/engine/engine.ts';
import { EventQueues } from '../../src/engine/events/event-queues.ts';
import type { Notice } from '../../src/engine/events/event-types.ts';

const logFile = process.env.API_COVERAGE_LOG;
// Run again before each test file in one module scope (the node project's isolate: false):
// the methods are wrapped once.
const RECORDING = Symbol.for('offline-realm.test.api-coverage');
const shared = globalThis as typeof globalThis & { [RECORDING]?: true };

interface InFlight {
  route: string;
  events: Set<string>;
}

if (logFile && !shared[RECORDING]) {
  shared[RECORDING] = true;
  // Long-polls wait while other requests run; events belong to the request that caused them.
  const inFlight: InFlight[] = [];
  const handle = Engine.prototype.handle;
  // Every argument passes through: the host's options (a client address) change answers.
  Engine.prototype.handle = async function (this: Engine, ...args: Parameters<Engine['handle']>): Promise<Response> {
    const [request] = args;
    const url = new URL(request.url);
    const match = this.router.match(request.method, url.pathname.replace(/^\/api\/v1/, ''));
    const route = match.kind === 'found' ? `${match.endpoint.method} ${match.endpoint.path}` : '';
    const entry: InFlight = { route, events: new Set() };
    const waits = route === 'GET /events';
    if (!waits) inFlight.push(entry);
    try {
      const response = await handle.apply(this, args);
      if (route) {
        appendFileSync(logFile, `${JSON.stringify({ route, status: response.status, events: [...entry.events] })}\n`);
      }
      return response;
    } finally {
      if (!waits) inFlight.splice(inFlight.indexOf(entry), 1);
    }
  };
  const deliver = EventQueues.prototype.deliver;
  EventQueues.prototype.deliver = function (this: EventQueues, notices: Iterable<Notice>): void {
    const list = [...notices];
    const current = inFlight.at(-1);
    for (const notice of list) {
      const op = typeof notice.event.op === 'string' ? `/${notice.event.op}` : '';
      current?.events.add(`${notice.event.type}${op}`);
    }
    deliver.call(this, list);
  };
}
