/**
 * Messages between the bench page and the bench SharedWorker (bench-worker.ts), and the API the
 * bench page offers the Node driver on `window.offlineRealmBench`. Bench-only: the app's build
 * contains none of it.
 */
import type { MessagePlace } from '../../src/engine/storage/flags.ts';
import type { FlagLayout } from '../flag-row-layouts.ts';
import type { BenchRealm, BenchUser } from '../realm-fixture.ts';

/** Page -> bench worker; every message is answered with a `BenchReply` carrying its `replyId`. */
export type BenchCall =
  /** Builds the 100k-message realm once (later calls get the same answer). */
  | { type: 'build-realm' }
  /** Answered at once: the bare postMessage round trip. */
  | { type: 'ping' }
  /** Times one `engine.handle()` of this request, from the call to the body in hand (`timedCall`; with `platformResponse`, `timedPlatformCall`). */
  | { type: 'time-handle'; user: BenchUser; method: string; path: string; params: Record<string, unknown>; withBody: boolean; platformResponse?: boolean }
  /**
   * Times the bare index query for the newest `limit` messages of a topic; with `flagsOf`, also
   * reads that user's flag rows of those messages in the same transaction (what a page must add):
   * key by key (`keys`, as pages did before the place columns) or as one range of the place index
   * read beside the query (`range`, as pages do now).
   */
  | { type: 'time-topic-query'; channelId: number; topic: string; limit: number; flagsOf: number | null; flagsBy?: 'keys' | 'range' }
  /** Times writing a send's flag rows bare, with the user_messages indexes before the place columns or now (bench/flag-row-layouts.ts). */
  | { type: 'time-flag-rows'; layout: FlagLayout; message: MessagePlace; recipients: number[] };

export type BenchCallMessage = BenchCall & { replyId: number };

export type BenchReply = { replyId: number; ok: true; value: unknown } | { replyId: number; ok: false; error: string };

export interface TimedHandle {
  ms: number;
  status: number;
  /** Only when asked for (`withBody`): checks need it, timing loops do not. */
  body: string | null;
}

export interface TimedQuery {
  ms: number;
  /** The ids returned, newest first. */
  ids: number[];
}

/** Timing samples in milliseconds, one array per side, measured alternately. */
export interface SmallGetSamples {
  relayed: number[];
  engine: number[];
  ping: number[];
  /** A bare Service Worker answering the same fetch by itself. */
  floor: number[];
  /** A bare Service Worker relaying it to a SharedWorker that answers at once (the runtime contract's path, nothing behind it). */
  relayFloor: number[];
  /** MSW's browser worker answering it from a handler in its page, with the engine's body. */
  msw: number[];
  /** The same, the handler calling `engine.handle()` on an Engine in its page (the same work as ours). */
  mswEngine: number[];
}

export interface SendSamples {
  relayed: number[];
  engine: number[];
  /** The same POST answered by a bare Service Worker by itself (the small GET's floor). */
  floor: number[];
  /** The same POST through the bare relay to a SharedWorker (the small GET's relay floor). */
  relayFloor: number[];
  /** The same, the SharedWorker writing a send's flag rows before it answers: the fetch less that write. */
  relayFloorAfterWrite: number[];
  /** That write alone, timed in the SharedWorker. */
  relayFloorWrite: number[];
  /** The send's flag rows alone, written bare in fresh databases: user_messages indexes before the place columns, and now. */
  flagRowsBefore: number[];
  flagRowsNow: number[];
}

export interface TopicPageSamples {
  relayed: number[];
  engine: number[];
  /** `handle()` answering the platform's own Response, its body read (`timedPlatformCall`). */
  enginePlatform: number[];
  bare: number[];
  /** The bare query plus the viewer's flag rows of the same messages, key by key. */
  bareWithFlags: number[];
  /** The bare query plus the viewer's flag rows as one range of the place index, both at once. */
  bareWithFlagRange: number[];
  topicMessages: number;
}

/** `POST /register` through `handle()` in the bench worker, whole and for the unread data alone, beside a request's fixed cost. */
export interface RegisterSamples {
  whole: number[];
  unread: number[];
  /** `GET /users/me`: what any request costs in `handle()`. */
  usersMe: number[];
  /** The viewer's unread messages the unread data holds. */
  unreadCount: number;
}

/** A clock the tabs of one browser share: `performance.timeOrigin + performance.now()`. */
export interface TimedSend {
  startedAt: number;
  ms: number;
}

export interface BenchPageApi {
  /** Resolves once the bench realm is built and the page's server is ready. */
  ready: Promise<BenchRealm>;
  smallGet(samples: number, warmup: number): Promise<SmallGetSamples>;
  sendRate(sends: number): Promise<SendSamples>;
  topicPage(samples: number, warmup: number): Promise<TopicPageSamples>;
  register(samples: number, warmup: number): Promise<RegisterSamples>;
  /** Registers this tab's event queue (message events only). */
  openQueue(): Promise<void>;
  /** Starts a long-poll on the tab's queue; resolves once it is sent, not answered. */
  startPoll(): Promise<void>;
  /** When the started poll's answer arrived (shared clock), once it carries a message event. */
  finishPoll(): Promise<number>;
  timedSend(n: number): Promise<TimedSend>;
}

declare global {
  interface Window {
    offlineRealmBench: BenchPageApi;
  }
}
