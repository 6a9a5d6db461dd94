// The figures of one realm size: a send, the topic page, a whole `/register`, and the unread data
// alone (`/register` fetching only `message` and `update_message_flags`), each timed around
// `handle()` to the body read; p50 over the samples after a few warm-up calls.
import type { Engine } from '../src/engine/engine.ts';
import { apiRequest, expectOk, timedCall } from './api-client.ts';
import type { BenchRealm } from './realm-fixture.ts';
import { median } from './stats.ts';

const WARMUP = 5;
const PAGE = 100;
export const SAMPLES = { send: 200, page: 100, register: 30, unread: 30 } as const;

export interface ScaleFigures {
  sendP50: number;
  pageP50: number;
  registerP50: number;
  unreadP50: number;
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
    sendP50: send.p50,
    pageP50: page.p50,
    registerP50: register.p50,
    unreadP50: unread.p50,
    unreadCount: state.unread_msgs.count,
    recentConversations: state.recent_private_conversations.length,
    registerBytes: register.lastBody.length,
  };
}

async function timed(engine: Engine, samples: number, request: () => Request, what: string): Promise<{ p50: number; lastBody: string }> {
  const times: number[] = [];
  let lastBody = '';
  for (let i = 0; i < WARMUP + samples; i++) {
    const result = await timedCall(engine, request());
    expectOk(result, what);
    lastBody = result.body;
    if (i >= WARMUP) times.push(result.ms);
  }
  return { p50: median(times), lastBody };
}

