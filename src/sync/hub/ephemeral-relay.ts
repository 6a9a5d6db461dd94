import type { Engine } from '../../engine/engine.ts';
import type { EventQueue } from '../../engine/events/event-queue.ts';
import { type EngineEvent, NO_CAPABILITIES } from '../../engine/events/event-types.ts';
import { EPHEMERAL_EVENT_TYPES, type EphemeralMark, MAX_EPHEMERAL_PER_WAIT } from '../protocol.ts';

/** Waiting replicas of one user the hub keeps a queue for; the one waited on longest ago makes way. */
const MAX_RELAYS_PER_USER = 4;
/** A relay queue no wait has asked for in this long is dropped by the engine's queue expiry. */
const RELAY_LIFESPAN_SECS = 120;

/** One waiting replica's ephemeral events, as the hub's own queue of them. */
export interface Relay {
  /**
   * Resolves false once an event for the replica is queued (at once if one already is), or once
   * `signal` aborts: a wait's `changed`. The user's own events do not answer the wait.
   */
  arrival(signal: AbortSignal): Promise<false>;
  /**
   * The queued events (the newest few), and how far they go. Acknowledged now for a replica that
   * does not acknowledge them itself (before version 4); else its next wait does (`open`).
   */
  take(acknowledge: boolean): { events: EngineEvent[]; until: EphemeralMark };
}

/**
 * Typing notices and presence changes for waiting replicas (docs/SYNC.md, "Ephemeral events"):
 * for each replica (user and `client_id`), an event queue on the hub's engine for the ephemeral
 * types only, so the engine's own delivery decides who hears what. Its events are canonical, as
 * actions emit them with the user's own fields (a presence event's `email`): the replica's queues
 * shape them for its clients. Nothing stored: a hub restart or an expired queue loses what was
 * in it, as it would a client's.
 */
export class EphemeralRelay {
  readonly #engine: Engine;
  /** `userId:clientId` -> that replica's queue id on the hub's engine. */
  readonly #queueIds = new Map<string, string>();

  constructor(engine: Engine) {
    this.#engine = engine;
  }

  /** The replica's relay, after forgetting what it says (`ack`) it received from this queue. */
  open(userId: number, clientId: string, ack?: EphemeralMark): Relay {
    const queue = this.#queueOf(userId, clientId);
    const queues = this.#engine.queues;
    if (ack && ack.queue_id === queue.id && ack.last_event_id >= queue.newestPrunedId) void queues.poll(queue, ack.last_event_id, true);
    const relayed = (event: EngineEvent) => EPHEMERAL_EVENT_TYPES.has(event.type) && senderOf(event) !== userId;
    return {
      arrival: async (signal) => {
        for (;;) {
          const events = await queues.poll(queue, queue.newestPrunedId, false, signal);
          // None: aborted, or a newer wait of this replica took the queue over.
          if (events.length === 0 || events.some(relayed)) return false;
          // Only the user's own echo (or a heartbeat): acknowledged, and the wait goes on.
          void queues.poll(queue, events.at(-1)!.id, true);
        }
      },
      take: (acknowledge) => {
        // A copy: acknowledging prunes the queue's own array.
        const events = queue.events.slice();
        const until = { queue_id: queue.id, last_event_id: events.at(-1)?.id ?? queue.newestPrunedId };
        if (acknowledge && events.length > 0) void queues.poll(queue, until.last_event_id, true);
        return {
          events: events
            .filter(relayed)
            .slice(-MAX_EPHEMERAL_PER_WAIT)
            .map(({ id: _id, ...event }) => event),
          until,
        };
      },
    };
  }

  #queueOf(userId: number, clientId: string): EventQueue {
    const key = `${userId}:${clientId}`;
    const known = this.#queueIds.get(key);
    if (known) {
      try {
        return this.#engine.queues.get(known, userId);
      } catch {
        this.#queueIds.delete(key);
      }
    }
    this.#makeRoom(userId);
    const queue = this.#engine.queues.create({
      userId,
      eventTypes: EPHEMERAL_EVENT_TYPES,
      narrow: [],
      allPublicStreams: false,
      applyMarkdown: false,
      clientGravatar: false,
      slimPresence: false,
      capabilities: NO_CAPABILITIES,
      lifespanSecs: RELAY_LIFESPAN_SECS,
      canonical: true,
    });
    this.#queueIds.set(key, queue.id);
    return queue;
  }

  /** Drops the user's relay queue waited on longest ago when they have their most. */
  #makeRoom(userId: number): void {
    const own: { key: string; queue: EventQueue }[] = [];
    for (const [key, queueId] of this.#queueIds) {
      if (!key.startsWith(`${userId}:`)) continue;
      try {
        own.push({ key, queue: this.#engine.queues.get(queueId, userId) });
      } catch {
        this.#queueIds.delete(key);
      }
    }
    if (own.length < MAX_RELAYS_PER_USER) return;
    const stalest = own.sort((a, b) => a.queue.lastConnectionMs - b.queue.lastConnectionMs)[0]!;
    this.#engine.queues.delete(stalest.queue.id, userId);
    this.#queueIds.delete(stalest.key);
  }
}

/** Who typed or reported presence: a replica's own user's event is its own echo (its clients heard it locally). */
function senderOf(event: EngineEvent): number | undefined {
  if (event.type === 'typing_edit_message') return event.sender_id as number;
  if (event.type === 'presence') return event.user_id as number;
  return (event.sender as { user_id: number } | undefined)?.user_id;
}
