import type { Clock } from '../clock/clock.ts';
import { randomUuid } from '../crypto/portable-crypto.ts';
import { ApiError, badEventQueueId } from '../errors/api-error.ts';
import { finalizeForQueue } from './event-finalizers.ts';
import type { EventQueue, QueueOptions, Waiter } from './event-queue.ts';
import type { EngineEvent, Notice, QueuedEvent } from './event-types.ts';

const DEFAULT_LIFESPAN_SECS = 600;
/** Upstream's MAX_QUEUE_TIMEOUT_SECS: a longer `queue_lifespan_secs` is cut to it. */
const MAX_LIFESPAN_SECS = 7 * 24 * 3600;
/**
 * Upstream has no bound; a client registering in a loop could hold memory for a week. Far more
 * than one person's tabs and devices: past it, the queue polled longest ago makes way.
 */
export const MAX_QUEUES_PER_USER = 100;
const GC_INTERVAL_MS = 60_000;
const HEARTBEAT_MIN_MS = 45_000;
const HEARTBEAT_JITTER_MS = 10_000;

/**
 * The in-memory event queues of one engine, and the one place that decides which queues see
 * an event. Delivery is at-least-once: a poll returns everything not yet acknowledged, and
 * events are dropped only when a later poll acknowledges them with `last_event_id`, so a reply
 * lost on the way (a closed tab, a restarted Service Worker) loses nothing.
 */
export class EventQueues {
  readonly #clock: Clock;
  readonly #queues = new Map<string, EventQueue>();
  readonly #byUser = new Map<number, Set<EventQueue>>();
  #gcTimer: unknown = null;

  /** When these queues' host started, UNIX seconds: register's `server_generation`. */
  readonly startedAt: number;

  constructor(clock: Clock) {
    this.#clock = clock;
    this.startedAt = Math.floor(clock.now() / 1000);
  }

  create(options: QueueOptions): EventQueue {
    const lifespan = options.lifespanSecs ? Math.min(options.lifespanSecs, MAX_LIFESPAN_SECS) : DEFAULT_LIFESPAN_SECS;
    const queue: EventQueue = {
      ...options,
      lifespanSecs: lifespan,
      id: randomUuid(),
      events: [],
      nextEventId: 0,
      newestPrunedId: -1,
      lastConnectionMs: this.#clock.now(),
      waiter: null,
    };
    this.#queues.set(queue.id, queue);
    let own = this.#byUser.get(options.userId);
    if (!own) this.#byUser.set(options.userId, (own = new Set()));
    own.add(queue);
    if (own.size > MAX_QUEUES_PER_USER) this.#evictStalest(own);
    this.#scheduleGc();
    return queue;
  }

  /** Discards the user's queue polled longest ago, one without a waiting poll if any; it then answers BAD_EVENT_QUEUE_ID. */
  #evictStalest(own: Set<EventQueue>): void {
    const [stalest] = [...own].sort((a, b) => Number(!!a.waiter) - Number(!!b.waiter) || a.lastConnectionMs - b.lastConnectionMs);
    stalest.waiter?.resolve(stalest.events.slice());
    this.#remove(stalest);
  }

  /** The caller's live queue, or BAD_EVENT_QUEUE_ID (unknown, expired, or someone else's). */
  get(queueId: string, userId: number): EventQueue {
    const queue = this.#queues.get(queueId);
    if (!queue || queue.userId !== userId) throw badEventQueueId(queueId);
    if (this.#isExpired(queue)) {
      this.#remove(queue);
      throw badEventQueueId(queueId);
    }
    return queue;
  }

  delete(queueId: string, userId: number): void {
    const queue = this.get(queueId, userId);
    queue.waiter?.resolve(queue.events.slice());
    this.#remove(queue);
  }

  get size(): number {
    return this.#queues.size;
  }

  queuesOf(userId: number): Iterable<EventQueue> {
    return this.#byUser.get(userId) ?? [];
  }

  all(): Iterable<EventQueue> {
    return this.#queues.values();
  }

  /**
   * One long-poll: acknowledges through `lastEventId`, then answers at once with whatever is
   * queued (or immediately when `dontBlock`), else waits for the next event or a heartbeat.
   */
  poll(queue: EventQueue, lastEventId: number, dontBlock: boolean, signal?: AbortSignal): Promise<QueuedEvent[]> {
    try {
      this.#acknowledge(queue, lastEventId);
    } catch (error) {
      return Promise.reject(error);
    }
    // A newer poll on the same queue finishes the older one first, as upstream does.
    queue.waiter?.resolve(queue.events.slice());
    queue.lastConnectionMs = this.#clock.now();
    if (queue.events.length > 0 || dontBlock) return Promise.resolve(queue.events.slice());
    // A client that left before its poll began gets no waiter (its signal will not fire again).
    if (signal?.aborted) return Promise.resolve([]);

    return new Promise((resolve) => {
      const waiter: Waiter = {
        resolve: (events) => {
          this.#clock.clearTimeout(waiter.heartbeat);
          signal?.removeEventListener('abort', onAbort);
          if (queue.waiter === waiter) {
            queue.waiter = null;
            queue.lastConnectionMs = this.#clock.now();
          }
          resolve(events);
        },
        heartbeat: this.#clock.setTimeout(
          () => this.#push(queue, { type: 'heartbeat' }),
          HEARTBEAT_MIN_MS + Math.random() * HEARTBEAT_JITTER_MS,
        ),
      };
      const onAbort = () => waiter.resolve([]);
      signal?.addEventListener('abort', onAbort, { once: true });
      queue.waiter = waiter;
    });
  }

  /** Sends each notice to every live queue of its users that accepts it, shaped for that queue. */
  deliver(notices: Iterable<Notice>): void {
    for (const notice of notices) {
      const targets = new Set<EventQueue>();
      for (const userId of notice.users) {
        for (const queue of this.queuesOf(userId)) targets.add(queue);
      }
      if (notice.allPublicStreamsChannelId !== undefined) {
        for (const queue of this.#queues.values()) if (queue.allPublicStreams) targets.add(queue);
      }
      for (const queue of targets) {
        const shaped = finalizeForQueue(notice, queue);
        for (const event of shaped) this.#push(queue, event);
      }
    }
  }

  #push(queue: EventQueue, event: EngineEvent): void {
    const queued = { ...event, id: queue.nextEventId++ } as QueuedEvent;
    queue.events.push(queued);
    queue.waiter?.resolve(queue.events.slice());
  }

  #acknowledge(queue: EventQueue, lastEventId: number): void {
    if (lastEventId < queue.newestPrunedId) {
      throw new ApiError(`An event newer than ${lastEventId} has already been pruned!`);
    }
    let pruned = 0;
    while (pruned < queue.events.length && queue.events[pruned].id <= lastEventId) pruned++;
    // Checked before pruning, so that a refused acknowledgement loses no event.
    const newestPruned = pruned > 0 ? queue.events[pruned - 1].id : queue.newestPrunedId;
    if (lastEventId !== newestPruned) {
      throw new ApiError(`Event ${lastEventId} was not in this queue`);
    }
    queue.newestPrunedId = newestPruned;
    queue.events.splice(0, pruned);
  }

  #isExpired(queue: EventQueue): boolean {
    return !queue.waiter && this.#clock.now() - queue.lastConnectionMs >= (queue.lifespanSecs ?? 0) * 1000;
  }

  #remove(queue: EventQueue): void {
    this.#queues.delete(queue.id);
    const own = this.#byUser.get(queue.userId);
    own?.delete(queue);
    if (own?.size === 0) this.#byUser.delete(queue.userId);
  }

  #scheduleGc(): void {
    if (this.#gcTimer !== null) return;
    this.#gcTimer = this.#clock.setTimeout(() => {
      this.#gcTimer = null;
      for (const queue of [...this.#queues.values()]) if (this.#isExpired(queue)) this.#remove(queue);
      if (this.#queues.size > 0) this.#scheduleGc();
    }, GC_INTERVAL_MS);
  }

  /** Ends every pending poll and timer (engine shutdown). */
  close(): void {
    for (const queue of this.#queues.values()) queue.waiter?.resolve(queue.events.slice());
    if (this.#gcTimer !== null) this.#clock.clearTimeout(this.#gcTimer);
    this.#gcTimer = null;
    this.#queues.clear();
    this.#byUser.clear();
  }
}
