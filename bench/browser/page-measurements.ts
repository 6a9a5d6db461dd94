// The bench page's timing loops. Each round times the relayed fetch and the same work done bare
// in the bench worker, so a busy spell on the machine slows every side alike; a round's sides
// run in an order shuffled afresh for every round (shuffled-rounds.ts).
import { expectOk } from '../api-client.ts';
import type { BenchRealm } from '../realm-fixture.ts';
import type { RegisterSamples, SendSamples, SmallGetSamples, TimedHandle, TimedQuery, TopicPageSamples } from './bench-protocol.ts';
import type { BenchWorkerClient } from './bench-worker-client.ts';
import { apiFetch, timedFetch } from './page-fetch.ts';
import { openRelayPeers, type RelayPeers } from './relay-peers.ts';
import { shuffledRounds } from './shuffled-rounds.ts';

const PAGE = 100;
const SEND_TOPIC = 'browser send bench';

/**
 * `GET /users/me`: through the Service Worker, `engine.handle()` in a SharedWorker, a ping, and
 * the same fetch answered with the engine's body by a bare Service Worker (the floor), by a bare
 * Service Worker relaying to a SharedWorker (the relay floor) and by MSW's worker from a handler
 * in its page (the peer), both fixed and through `engine.handle()`.
 */
export async function smallGet(worker: BenchWorkerClient, realm: BenchRealm, samples: number, warmup: number): Promise<SmallGetSamples> {
  const user = realm.hot.subscribers[2];
  const peers = await relayPeers(realm);
  const result: SmallGetSamples = { relayed: [], engine: [], ping: [], floor: [], relayFloor: [], msw: [], mswEngine: [] };
  const round = shuffledRounds();
  for (let i = 0; i < warmup + samples; i++) {
    const [relayed, bare, ping, floor, relayFloor, msw, mswEngine] = await round([
      () => timedFetch(user, 'GET', '/users/me'),
      () => worker.call<TimedHandle>({ type: 'time-handle', user, method: 'GET', path: '/users/me', params: {}, withBody: false }),
      () => worker.ping(),
      () => timedFetch(user, 'GET', '/users/me', {}, peers.floor),
      () => timedFetch(user, 'GET', '/users/me', {}, peers.relayFloor),
      () => {
        peers.mswAnswers('fixed');
        return timedFetch(user, 'GET', '/users/me', {}, peers.msw);
      },
      () => {
        peers.mswAnswers('engine');
        return timedFetch(user, 'GET', '/users/me', {}, peers.msw);
      },
    ] as const);
    expectOk(relayed, 'GET /users/me');
    expectOk({ status: bare.status, body: '' }, 'GET /users/me in the bench worker');
    if ([floor, relayFloor, msw, mswEngine].some((peer) => peer.body !== relayed.body)) throw new Error('a floor or MSW answered other than the engine');
    if (i < warmup) continue;
    result.relayed.push(relayed.ms);
    result.engine.push(bare.ms);
    result.ping.push(ping);
    result.floor.push(floor.ms);
    result.relayFloor.push(relayFloor.ms);
    result.msw.push(msw.ms);
    result.mswEngine.push(mswEngine.ms);
  }
  return result;
}

let peersOpened: Promise<RelayPeers> | null = null;

/** The floor and the peer, opened once per page: each answers with the small GET's body, the engine's `GET /users/me`. */
function relayPeers(realm: BenchRealm): Promise<RelayPeers> {
  peersOpened ??= (async () => {
    const first = await timedFetch(realm.hot.subscribers[2], 'GET', '/users/me');
    expectOk(first, 'GET /users/me');
    const { hot } = realm;
    const place = { sender_id: hot.subscribers[1].id, stream_id: hot.channelId, topic_key: SEND_TOPIC };
    return openRelayPeers(first.body, { place, recipients: hot.subscribers.map((u) => u.id) });
  })();
  return peersOpened;
}

/**
 * Sends in a row through each side: the two are engines of their own over one database, each
 * holding its next message id, so the first send after the other side's finds its id taken and
 * reads it again (`storage/message-ids.ts`). Blocks keep that to one send in `SEND_BLOCK` per
 * side (one engine per database is the host's case) while a busy spell still slows both alike.
 */
const SEND_BLOCK = 25;

/**
 * `POST /messages` to the 10-subscriber channel, through fetch and through `handle()` alone, and
 * the same POST answered by the bare Service Worker by itself and through the bare relay (what
 * Chromium's own hops cost a POST, with no engine behind them).
 */
export async function sendRate(worker: BenchWorkerClient, realm: BenchRealm, sends: number): Promise<SendSamples> {
  const { hot } = realm;
  const sender = hot.subscribers[1];
  const peers = await relayPeers(realm);
  const result: SendSamples = { relayed: [], engine: [], floor: [], relayFloor: [], relayFloorAfterWrite: [], relayFloorWrite: [], flagRowsBefore: [], flagRowsNow: [] };
  const recipients = hot.subscribers.map((u) => u.id);
  const paramsOf = (n: number) => ({ type: 'stream', to: hot.channelName, topic: SEND_TOPIC, content: `status update ${n}: the build is green and the migration is ready` });
  for (let start = 0; start < sends; start += SEND_BLOCK) {
    const block = Array.from({ length: Math.min(SEND_BLOCK, sends - start) }, (_, i) => start + i);
    for (const n of block) {
      const relayed = await timedFetch(sender, 'POST', '/messages', paramsOf(n));
      expectOk(relayed, 'POST /messages');
      result.relayed.push(relayed.ms);
    }
    for (const n of block) {
      const bare = await worker.call<TimedHandle>({ type: 'time-handle', user: sender, method: 'POST', path: '/messages', params: paramsOf(n), withBody: false });
      expectOk({ status: bare.status, body: '' }, 'POST /messages in the bench worker');
      result.engine.push(bare.ms);
    }
    for (const n of block) result.floor.push((await timedFetch(sender, 'POST', '/messages', paramsOf(n), peers.floor)).ms);
    for (const n of block) result.relayFloor.push((await timedFetch(sender, 'POST', '/messages', paramsOf(n), peers.relayFloor)).ms);
    for (const n of block) {
      const start = performance.now();
      const answer = await apiFetch(sender, 'POST', '/messages?write', paramsOf(n), peers.relayFloor);
      await answer.text();
      const written = Number(answer.headers.get('X-Bench-Write-Ms'));
      if (!(written > 0)) throw new Error('the relay floor did not write');
      result.relayFloorWrite.push(written);
      result.relayFloorAfterWrite.push(performance.now() - start - written);
    }
    for (const n of block) {
      // Ids far above the realm's, in databases of their own.
      const message = { id: 1_000_000_000 + n, sender_id: sender.id, stream_id: hot.channelId, topic_key: SEND_TOPIC };
      result.flagRowsBefore.push(await worker.call<number>({ type: 'time-flag-rows', layout: 'before', message, recipients }));
      result.flagRowsNow.push(await worker.call<number>({ type: 'time-flag-rows', layout: 'now', message, recipients }));
    }
  }
  return result;
}

/** Newest 100 of the big topic: through fetch, through `handle()` alone, and bare index queries. */
export async function topicPage(worker: BenchWorkerClient, realm: BenchRealm, samples: number, warmup: number): Promise<TopicPageSamples> {
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
  const result: TopicPageSamples = { relayed: [], engine: [], enginePlatform: [], bare: [], bareWithFlags: [], bareWithFlagRange: [], topicMessages: hot.topicMessages };
  const round = shuffledRounds();
  for (let i = 0; i < warmup + samples; i++) {
    const query = { type: 'time-topic-query', channelId: hot.channelId, topic: hot.topic, limit: PAGE } as const;
    const [relayed, handled, platform, bare, withFlags, withFlagRange] = await round([
      () => timedFetch(viewer, 'GET', '/messages', params),
      () => worker.call<TimedHandle>({ type: 'time-handle', user: viewer, method: 'GET', path: '/messages', params, withBody: i === 0 }),
      () => worker.call<TimedHandle>({ type: 'time-handle', user: viewer, method: 'GET', path: '/messages', params, withBody: false, platformResponse: true }),
      () => worker.call<TimedQuery>({ ...query, flagsOf: null }),
      () => worker.call<TimedQuery>({ ...query, flagsOf: viewer.id, flagsBy: 'keys' }),
      () => worker.call<TimedQuery>({ ...query, flagsOf: viewer.id, flagsBy: 'range' }),
    ] as const);
    expectOk(relayed, 'GET /messages');
    expectOk({ status: handled.status, body: handled.body ?? '' }, 'GET /messages in the bench worker');
    expectOk({ status: platform.status, body: '' }, 'GET /messages in the bench worker, platform Response');
    if (i === 0) checkSamePage([relayed.body, handled.body ?? ''], bare.ids);
    if (i < warmup) continue;
    result.relayed.push(relayed.ms);
    result.engine.push(handled.ms);
    result.enginePlatform.push(platform.ms);
    result.bare.push(bare.ms);
    result.bareWithFlags.push(withFlags.ms);
    result.bareWithFlagRange.push(withFlagRange.ms);
  }
  return result;
}

/** The scale curves' `/register` figures (bench/scale-figures.ts) on the browser's 100k realm, as the same viewer. */
export async function register(worker: BenchWorkerClient, realm: BenchRealm, samples: number, warmup: number): Promise<RegisterSamples> {
  const viewer = realm.hot.subscribers[2];
  const call = async (path: string, params: Record<string, unknown>, method = 'POST') => {
    const handled = await worker.call<TimedHandle>({ type: 'time-handle', user: viewer, method, path, params, withBody: true });
    expectOk({ status: handled.status, body: handled.body ?? '' }, `${method} ${path} in the bench worker`);
    return handled;
  };
  const result: RegisterSamples = { whole: [], unread: [], usersMe: [], unreadCount: 0 };
  for (let i = 0; i < warmup + samples; i++) {
    const whole = await call('/register', {});
    const unread = await call('/register', { fetch_event_types: ['message', 'update_message_flags'] });
    const usersMe = await call('/users/me', {}, 'GET');
    if (i === 0) result.unreadCount = (JSON.parse(unread.body ?? '{}') as { unread_msgs: { count: number } }).unread_msgs.count;
    if (i < warmup) continue;
    result.whole.push(whole.ms);
    result.unread.push(unread.ms);
    result.usersMe.push(usersMe.ms);
  }
  return result;
}

/** Every side must return the same 100 messages, or the comparison means nothing. */
function checkSamePage(bodies: string[], bareIdsNewestFirst: number[]): void {
  const expected = [...bareIdsNewestFirst].reverse().join();
  for (const body of bodies) {
    const ids = (JSON.parse(body).messages as Array<{ id: number }>).map((m) => m.id);
    if (ids.length !== PAGE || ids.join() !== expected) throw new Error(`GET /messages returned ${ids.length} messages that differ from the index query's`);
  }
}
