// The figures of one realm size: a send, the topic page, a whole `/register`, and the unread data
// alone (`/register` fetching only `message` and `update_message_flags`), each timed around
// `handle()` to the body read; p50 over the samples after a few warm-up calls, and p50 with the
// garbage-collection pauses inside each sample taken out (a larger heap makes every pause longer).
import type { Engine } from '../src/engine/engine.ts';
import { apiRequest, expectOk, timedCall } from './api-client.ts';
import { GcRecorder } from './gc-time.ts';
import type { BenchRealm } from './realm-fixture.ts';
import { median } from './stats.ts';

const WARMUP = 5;
const PAGE = 100;
export const SAMPLES = { send: 200, page: 100, register: 30, unread: 30 } as const;

/** p50 ms, as timed and with the GC pauses inside each sample taken out. */
export interface Timing {
  p50: number;
  p50WithoutGc: number;
}

export interface ScaleFigures {
  send: Timing;
  page: Timing;
  register: Timing;
  unread: Timing;
  /** The viewer's unread messages `/register` returns (the data that may make it grow). */
  unreadCount: number;
  /** Direct conversations in `recent_private_conversations` (read from up to 1000 newest DMs). */
  recentConversations: number;
  registerBytes: number;
}

/** Every figure is taken as one subscriber of the hot channel; the sends are another's. */
export async function measureScaleFigures(engine: Engine, realm: BenchRealm): Promise<ScaleFigures> {
  const { hot } = realm;
  const viewer = hot.subscribers[2];
  const sender = hot.subscribers[1];
  // The reads first: the sends add messages and events to the registered queues.
  const register = await timed(engine, SAMPLES.register, () => apiRequest(viewer, 'POST', '/register', {}), 'POST /register');
  const unread = await timed(
    engine,
    SAMPLES.unread,
    () => apiRequest(viewer, 'POST', '/register', { fetch_event_types: ['message', 'update_message_flags'] }),
    'POST /register (unread)',
  );
  const pageParams = {
    anchor: 'newest',
    num_before: PAGE,
    num_after: 0,
    narrow: [
      { operator: 'channel', operand: hot.channelName },
      { operator: 'topic', operand: hot.topic },
    ],
  };
  const page = await timed(engine, SAMPLES.page, () => apiRequest(viewer, 'GET', '/messages', pageParams), 'GET /messages');
  if ((JSON.parse(page.lastBody).messages as unknown[]).length !== PAGE) throw new Error(`the topic page did not hold ${PAGE} messages`);
  let n = 0;
  const send = await timed(
    engine,
    SAMPLES.send,
    () => apiRequest(sender, 'POST', '/messages', { type: 'stream', to: hot.channelName, topic: 'scale bench', content: `scale ${n++}` }),
    'POST /messages',
  );
  const state = JSON.parse(register.lastBody) as { unread_msgs: { count: number }; recent_private_conversations: unknown[] };
  return {
    send,
    page,
    register,
    unread,
    unreadCount: state.unread_msgs.count,
    recentConversations: state.recent_private_conversations.length,
    registerBytes: register.lastBody.length,
  };
}

async function timed(engine: Engine, samples: number, request: () => Request, what: string): Promise<Timing & { lastBody: string }> {
  const times: Array<{ start: number; ms: number }> = [];
  let lastBody = '';
  const gc = new GcRecorder();
  for (let i = 0; i < WARMUP + samples; i++) {
    const result = await timedCall(engine, request());
    expectOk(result, what);
    lastBody = result.body;
    if (i >= WARMUP) times.push({ start: result.startedAt, ms: result.ms });
  }
  // GC entries arrive after the pause, on a later tick.
  await new Promise((resolve) => setTimeout(resolve, 10));
  gc.stop();
  const withoutGc = times.map(({ start, ms }) => ms - gc.pauseWithin([[start, start + ms]]));
  return { p50: median(times.map((t) => t.ms)), p50WithoutGc: median(withoutGc), lastBody };
}
