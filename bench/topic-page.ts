// GET /messages, newest 100 of one big topic, against its floor: the two range reads the page needs
// (the messages of the topic index and the viewer's flag rows of the place index), in one transaction.
import { Dexie } from 'dexie';
import type { Engine } from '../src/engine/engine.ts';
import { apiRequest, expectOk, timedCall } from './api-client.ts';
import { GcRecorder, type Interval } from './gc-time.ts';
import type { BenchRealm } from './realm-fixture.ts';
import { median, percentile } from './stats.ts';

const WARMUP = 20;
const SAMPLES = 300;
const PAGE = 100;

export interface TopicPage {
  engine: { p50: number; p99: number };
  /** The floor: the bare query and the viewer's flag rows as one range of the place index, read together in one transaction. */
  floor: { p50: number; p99: number };
  /** The bare index query alone (the messages, without the viewer's flags). */
  bare: { p50: number };
  /** The bare query, then the viewer's flag rows of its messages key by key (`bulkGet`), in one transaction: how pages read flags before. */
  bareWithFlagKeys: { p50: number };
  /** Share of the engine's and the floor's measured time spent in garbage-collection pauses. */
  engineGcShare: number;
  floorGcShare: number;
  samples: number;
}

export async function measureTopicPage(engine: Engine, realm: BenchRealm): Promise<TopicPage> {
  const { hot } = realm;
  const viewer = hot.subscribers[2];
  const params = {
    anchor: 'newest',
    num_before: PAGE,
    num_after: 0,
    narrow: [
      { operator: 'channel', operand: hot.channelName },
      { operator: 'topic', operand: hot.topic },
    ],
  };
  const topicKey = hot.topic.toLowerCase();
  const bareQuery = () =>
    engine.db.messages
      .where('[stream_id+topic_key+id]')
      .between([hot.channelId, topicKey, Dexie.minKey], [hot.channelId, topicKey, Dexie.maxKey])
      .reverse()
      .limit(PAGE)
      .toArray();
  const flagRange = () =>
    engine.db.user_messages
      .where('[user_id+stream_id+thread_key+message_id]')
      .between([viewer.id, hot.channelId, topicKey, Dexie.minKey], [viewer.id, hot.channelId, topicKey, Dexie.maxKey])
      .reverse()
      .limit(PAGE)
      .toArray();
  const { messages, user_messages } = engine.db;
  const floorQuery = () => engine.db.transaction('r', [messages, user_messages], () => Promise.all([bareQuery(), flagRange()]));
  const bareWithFlagKeys = () =>
    engine.db.transaction('r', [messages, user_messages], async () => {
      const rows = await bareQuery();
      return user_messages.bulkGet(rows.map((row): [number, number] => [viewer.id, row.id]));
    });

  const engineMs: number[] = [];
  const bareMs: number[] = [];
  const floorMs: number[] = [];
  const withFlagKeysMs: number[] = [];
  const engineTimes: Interval[] = [];
  const floorTimes: Interval[] = [];
  const gc = new GcRecorder();
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    const result = await timedCall(engine, apiRequest(viewer, 'GET', '/messages', params));
    expectOk(result, 'GET /messages');
    const start = performance.now();
    const rows = await bareQuery();
    const bare = performance.now() - start;
    const floorStart = performance.now();
    await floorQuery();
    const floor = performance.now() - floorStart;
    const keysStart = performance.now();
    await bareWithFlagKeys();
    const withFlagKeys = performance.now() - keysStart;
    if (i === 0) checkSamePage(result.body, rows.map((r) => r.id));
    if (i < WARMUP) continue;
    engineMs.push(result.ms);
    bareMs.push(bare);
    floorMs.push(floor);
    withFlagKeysMs.push(withFlagKeys);
    engineTimes.push([result.startedAt, result.startedAt + result.ms]);
    floorTimes.push([floorStart, floorStart + floor]);
  }
  await new Promise((resolve) => setTimeout(resolve, 10));
  gc.stop();
  return {
    engineGcShare: gc.pauseWithin(engineTimes) / sum(engineMs),
    floorGcShare: gc.pauseWithin(floorTimes) / sum(floorMs),
    engine: { p50: median(engineMs), p99: percentile(engineMs, 99) },
    floor: { p50: median(floorMs), p99: percentile(floorMs, 99) },
    bare: { p50: median(bareMs) },
    bareWithFlagKeys: { p50: median(withFlagKeysMs) },
    samples: SAMPLES,
  };
}

const sum = (values: readonly number[]): number => values.reduce((total, value) => total + value, 0);

/** Both sides must return the same 100 messages, or the comparison means nothing. */
function checkSamePage(body: string, bareIds: number[]): void {
  const ids = (JSON.parse(body).messages as Array<{ id: number }>).map((m) => m.id);
  const expected = [...bareIds].reverse();
  if (ids.length !== PAGE || ids.join() !== expected.join()) {
    throw new Error(`GET /messages returned ${ids.length} messages that differ from the index query's`);
  }
}
