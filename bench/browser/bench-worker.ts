/**
 * The bench's own SharedWorker, beside the app's engine SharedWorker on the same origin and so
 * the same IndexedDB. It builds the 100k-message realm before the app's engine starts (so that
 * engine opens a finished realm, its caches cold and correct), and then takes the bare
 * measurements: `engine.handle()` on an Engine of its own over that database (the same code in
 * the same kind of context as the host's, minus the page, Service Worker and port hops), the
 * bare Dexie query, and a ping for the bare postMessage round trip.
 */
import { Dexie } from 'dexie';
import { Engine } from '../../src/engine/engine.ts';
import { apiRequest, timedCall, timedPlatformCall } from '../api-client.ts';
import { type FlagLayouts, openFlagLayouts } from '../flag-row-layouts.ts';
import { type BenchRealm, buildBenchRealm } from '../realm-fixture.ts';
import type { BenchCall, BenchCallMessage, BenchReply, TimedHandle, TimedQuery } from './bench-protocol.ts';

const scope = self as unknown as { onconnect: ((event: MessageEvent) => void) | null };

// Shared storage: the app's engine writes the same database, as it would in a browser.
const engine: Promise<Engine> = Engine.create({ indexedDB, IDBKeyRange });
let realm: Promise<BenchRealm> | null = null;
let layouts: FlagLayouts | null = null;

async function answer(call: Exclude<BenchCall, { type: 'ping' }>): Promise<unknown> {
  switch (call.type) {
    case 'build-realm':
      realm ??= engine.then(buildBenchRealm);
      return realm;
    case 'time-handle': {
      const timed = await (call.platformResponse ? timedPlatformCall : timedCall)(await engine, apiRequest(call.user, call.method, call.path, call.params));
      return { ms: timed.ms, status: timed.status, body: call.withBody ? timed.body : null } satisfies TimedHandle;
    }
    case 'time-topic-query': {
      const { db } = await engine;
      const topicKey = call.topic.toLowerCase();
      const { flagsOf } = call;
      const newest = () =>
        db.messages
          .where('[stream_id+topic_key+id]')
          .between([call.channelId, topicKey, Dexie.minKey], [call.channelId, topicKey, Dexie.maxKey])
          .reverse()
          .limit(call.limit)
          .toArray();
      const start = performance.now();
      const flagRange = (userId: number) =>
        db.user_messages
          .where('[user_id+stream_id+thread_key+message_id]')
          .between([userId, call.channelId, topicKey, Dexie.minKey], [userId, call.channelId, topicKey, Dexie.maxKey])
          .reverse()
          .limit(call.limit)
          .toArray();
      const rows =
        flagsOf === null
          ? await newest()
          : await db.transaction('r', [db.messages, db.user_messages], async () => {
              if (call.flagsBy === 'range') return (await Promise.all([newest(), flagRange(flagsOf)]))[0];
              const page = await newest();
              await db.user_messages.bulkGet(page.map((row): [number, number] => [flagsOf, row.id]));
              return page;
            });
      return { ms: performance.now() - start, ids: rows.map((row) => row.id) } satisfies TimedQuery;
    }
    case 'time-flag-rows':
      layouts ??= openFlagLayouts({ indexedDB, IDBKeyRange, name: 'bench-flag-rows' });
      return layouts.write(call.layout, call.message, call.recipients);
  }
}

scope.onconnect = (event) => {
  const page = event.ports[0];
  page.onmessage = ({ data }: MessageEvent<BenchCallMessage>) => {
    // The ping is answered synchronously: anything else would be measured with it.
    if (data.type === 'ping') return page.postMessage({ replyId: data.replyId, ok: true, value: null } satisfies BenchReply);
    answer(data).then(
      (value) => page.postMessage({ replyId: data.replyId, ok: true, value } satisfies BenchReply),
      (error: unknown) => page.postMessage({ replyId: data.replyId, ok: false, error: String(error instanceof Error ? error.stack : error) } satisfies BenchReply),
    );
  };
};
