// The figures of one realm size: a send, the topic page (beside the bare index query it walks),
// a whole `/register`, and the unread data alone (`/register` fetching only `message` and
// `update_message_flags`), each timed from calling `handle()` to the body read; p50 over the
// samples after a few warm-up calls, and p50 with the garbage-collection pauses inside each
// sample taken out. Each figure's storage calls and rows read are counted on one more call
// (bench/storage-calls.ts): the same rows at every size mean the engine reads no more as the
// realm grows.
import { Dexie } from 'dexie';
import type { Engine } from '../src/engine/engine.ts';
import { apiRequest, expectOk, timedCall } from './api-client.ts';
import { GcRecorder } from './gc-time.ts';
import type { BenchRealm } from './realm-fixture.ts';
import { median } from './stats.ts';
import type { StorageCallCounter, StorageCalls } from './storage-calls.ts';

const WARMUP = 5;
const PAGE = 100;
/** The window of `/register`'s `recent_private_conversations` (src/engine/initial-state/recent-conversations.ts). */
const RECENT_DIRECT_MESSAGES = 1000;
export const SAMPLES = { send: 200, page: 100, register: 30, unread: 30 } as const;

/** p50 ms, as timed and with the GC pauses inside each sample taken out; what one call asks of the store. */
export interface Timing {
  p50: number;
  p50WithoutGc: number;
  storage: StorageCalls;
}

export interface ScaleFigures {
  send: Timing;
  page: Timing;
  /** The page's index query alone (`messages` `[stream_id+topic_key+id]`, newest 100): the storage's own growth. */
  barePage: Timing;
  register: Timing;
  unread: Timing;
  /** `/register` fetching `recent_private_conversations` alone: the section whose window follows the realm until it is full. */
  recent: Timing;
  /** The viewer's unread messages `/register` returns (the data that may make it grow). */
  unreadCount: number;
  recentConversations: number;
  /** The viewer's flags rows `recent_private_conversations` walks: their newest direct messages, up to upstream's 1,000. */
  recentWindowRows: number;
  registerBytes: number;
}

interface Sample {
  startedAt: number;
  ms: number;
  body: string;
}

/** Every figure is taken as one subscriber of the hot channel; the sends are another's. */
export async function measureScaleFigures(engine: Engine, realm: BenchRealm, counter: StorageCallCounter): Promise<ScaleFigures> {
  const { hot } = realm;
  const viewer = hot.subscribers[2];
  const sender = hot.subscribers[1];
  const api = (what: string, request: () => Request) => async (): Promise<Sample> => {
    const result = await timedCall(engine, request());
    expectOk(result, what);
    return result;
  };
  // The reads first: the sends add messages and events to the registered queues.
  const register = await timed(counter, SAMPLES.register, api('POST /register', () => apiRequest(viewer, 'POST', '/register', {})));
  const unread = await timed(
    counter,
    SAMPLES.unread,
    api('POST /register (unread)', () => apiRequest(viewer, 'POST', '/register', { fetch_event_types: ['message', 'update_message_flags'] })),
  );
  const recent = await timed(
    counter,
    SAMPLES.unread,
    api('POST /register (recent conversations)', () => apiRequest(viewer, 'POST', '/register', { fetch_event_types: ['recent_private_conversations'] })),
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
  const page = await timed(counter, SAMPLES.page, api('GET /messages', () => apiRequest(viewer, 'GET', '/messages', pageParams)));
  if ((JSON.parse(page.lastBody).messages as unknown[]).length !== PAGE) throw new Error(`the topic page did not hold ${PAGE} messages`);
  const topicKey = hot.topic.toLowerCase();
  const barePage = await timed(counter, SAMPLES.page, async () => {
    const startedAt = performance.now();
    const rows = await engine.db.messages
      .where('[stream_id+topic_key+id]')
      .between([hot.channelId, topicKey, Dexie.minKey], [hot.channelId, topicKey, Dexie.maxKey])
      .reverse()
      .limit(PAGE)
      .toArray();
    return { startedAt, ms: performance.now() - startedAt, body: String(rows.length) };
  });
  let n = 0;
  const send = await timed(
    counter,
    SAMPLES.send,
    api('POST /messages', () => apiRequest(sender, 'POST', '/messages', { type: 'stream', to: hot.channelName, topic: 'scale bench', content: `scale ${n++}` })),
  );
  const state = JSON.parse(register.lastBody) as { unread_msgs: { count: number }; recent_private_conversations: unknown[] };
  return {
    send,
    page,
    barePage,
    register,
    unread,
    recent,
    unreadCount: state.unread_msgs.count,
    recentConversations: state.recent_private_conversations.length,
    recentWindowRows: Math.min(RECENT_DIRECT_MESSAGES, await directMessageCount(engine, viewer.id)),
    registerBytes: register.lastBody.length,
  };
}

/** Direct messages are channel 0 in the flags rows' place index. */
const directMessageCount = (engine: Engine, userId: number): Promise<number> =>
  engine.db.user_messages.where('[user_id+stream_id+message_id]').between([userId, 0, 0], [userId, 0, Infinity]).count();

async function timed(counter: StorageCallCounter, samples: number, call: () => Promise<Sample>): Promise<Timing & { lastBody: string }> {
  const times: Sample[] = [];
  const gc = new GcRecorder();
  for (let i = 0; i < WARMUP + samples; i++) {
    const sample = await call();
    if (i >= WARMUP) times.push(sample);
  }
  // GC entries arrive after the pause, on a later tick.
  await new Promise((resolve) => setTimeout(resolve, 10));
  gc.stop();
  const withoutGc = times.map(({ startedAt, ms }) => ms - gc.pauseWithin([[startedAt, startedAt + ms]]));
  return {
    p50: median(times.map((t) => t.ms)),
    p50WithoutGc: median(withoutGc),
    storage: await counter.record(call),
    lastBody: times[times.length - 1].body,
  };
}
