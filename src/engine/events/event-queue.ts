/**
 * One event queue's options and state, apart from `EventQueues` that holds them, so the
 * per-queue finalizers read a queue without importing the code that calls them.
 */
import type { ClientCapabilities, QueuedEvent } from './event-types.ts';
import type { QueueNarrowTerm } from './queue-narrow.ts';

export interface QueueOptions {
  userId: number;
  /** null: every type. */
  eventTypes: ReadonlySet<string> | null;
  /** The register `narrow`, checked: `message` events must match every term; empty: every message. */
  narrow: readonly QueueNarrowTerm[];
  allPublicStreams: boolean;
  applyMarkdown: boolean;
  clientGravatar: boolean;
  slimPresence: boolean;
  capabilities: ClientCapabilities;
  /** 0 or absent: the default 10 minutes. */
  lifespanSecs?: number;
  /**
   * Events as actions emit them (with the user's per-user fields), not shaped for any client:
   * a sync hub's relay, whose events the replica's own queues shape for its clients.
   */
  canonical?: boolean;
}

export interface Waiter {
  resolve: (events: QueuedEvent[]) => void;
  heartbeat: unknown;
}

export interface EventQueue extends QueueOptions {
  readonly id: string;
  events: QueuedEvent[];
  nextEventId: number;
  newestPrunedId: number;
  lastConnectionMs: number;
  waiter: Waiter | null;
}
