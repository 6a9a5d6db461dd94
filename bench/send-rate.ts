// Send throughput through `handle()` against a bare Dexie transaction writing the same rows.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { Engine } from '../src/engine/engine.ts';
import { userMessageRow } from '../src/engine/storage/flags.ts';
import { searchWords } from '../src/engine/validation/message-limits.ts';
import { FLAG_BITS, type MessageRow } from '../src/engine/storage/rows.ts';
import { apiRequest, expectOk, timedCall } from './api-client.ts';
import { GcRecorder, type Interval } from './gc-time.ts';
import { openFlagLayouts } from './flag-row-layouts.ts';
import type { BenchRealm } from './realm-fixture.ts';
import { median } from './stats.ts';

const SENDS = 2_000;
const TOPIC = 'send bench';
/**
 * Bare rows get ids far above the engine's and stay: deleting them would leave fake-indexeddb's
 * trees full of tombstones and slow every later query, the engine's included.
 */
const BARE_FIRST_ID = 1_000_000_000;

export interface SendRate {
  engineRate: number;
  bareRate: number;
  /** Share of each side's measured time spent in garbage-collection pauses. */
  engineGcShare: number;
  bareGcShare: number;
  sends: number;
  recipients: number;
  /** p50 ms of one send through `handle()`. */
  engineP50: number;
  /** p50 ms of the send's flag rows alone, written bare with the user_messages indexes before the place columns and now. */
  flagRowsBefore: number;
  flagRowsNow: number;
}

const contentOf = (n: number): string => `status update ${n}: the build is green and the migration is ready for review`;

/**
 * One engine send, then one bare transaction, alternately: a machine shared with other work
 * slows both sides alike instead of whichever ran during a busy spell.
 */
export async function measureSendRate(engine: Engine, realm: BenchRealm): Promise<SendRate> {
  const { hot } = realm;
  const sender = hot.subscribers[1];
  const recipients = hot.subscribers.map((u) => u.id);
  const channel = (await engine.db.channels.get(hot.channelId))!;
  const engineTimes: Interval[] = [];
  const bareTimes: Interval[] = [];
  const layouts = openFlagLayouts({ indexedDB: new IDBFactory(), IDBKeyRange, name: 'bench-flag-rows' });
  const flagRowsBefore: number[] = [];
  const flagRowsNow: number[] = [];
  const gc = new GcRecorder();
  for (let n = 0; n < SENDS; n++) {
    const request = apiRequest(sender, 'POST', '/messages', { type: 'stream', to: hot.channelName, topic: TOPIC, content: contentOf(n) });
    const sent = await timedCall(engine, request);
    expectOk(sent, 'POST /messages');
    engineTimes.push([sent.startedAt, sent.startedAt + sent.ms]);

    const id = BARE_FIRST_ID + n;
    const row = bareMessage(id, contentOf(n), sender.id, channel.id, channel.recipient_id, engine.nowSeconds());
    const flags = recipients.map((userId) => userMessageRow(userId, row, userId === sender.id ? FLAG_BITS.read : 0));
    const start = performance.now();
    await engine.db.transaction('rw', [engine.db.messages, engine.db.user_messages], async (tx) => {
      await tx.table('messages').add(row);
      await tx.table('user_messages').bulkAdd(flags);
    });
    bareTimes.push([start, performance.now()]);
    flagRowsBefore.push(await layouts.write('before', row, recipients));
    flagRowsNow.push(await layouts.write('now', row, recipients));
  }
  layouts.close();
  await new Promise((resolve) => setTimeout(resolve, 10));
  gc.stop();
  const engineMs = total(engineTimes);
  const bareMs = total(bareTimes);
  return {
    engineRate: SENDS / (engineMs / 1000),
    bareRate: SENDS / (bareMs / 1000),
    engineGcShare: gc.pauseWithin(engineTimes) / engineMs,
    bareGcShare: gc.pauseWithin(bareTimes) / bareMs,
    sends: SENDS,
    recipients: recipients.length,
    engineP50: median(engineTimes.map(([start, end]) => end - start)),
    flagRowsBefore: median(flagRowsBefore),
    flagRowsNow: median(flagRowsNow),
  };
}

const total = (intervals: readonly Interval[]): number => intervals.reduce((sum, [start, end]) => sum + end - start, 0);

/** The row the send action would store for this content (rendered as plain Markdown renders it). */
function bareMessage(id: number, content: string, senderId: number, channelId: number, recipientId: number, timestamp: number): MessageRow {
  return {
    id,
    sender_id: senderId,
    type: 'stream',
    topic: TOPIC,
    recipient_id: recipientId,
    content,
    rendered_content: `<p>${content}</p>`,
    timestamp,
    client: 'website',
    is_me_message: false,
    has_link: false,
    has_image: false,
    has_attachment: false,
    words: searchWords(content, TOPIC),
    stream_id: channelId,
    topic_key: TOPIC,
  };
}
