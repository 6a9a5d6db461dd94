import { signal } from '@preact/signals';
import type { ApiClient } from '../api/api-client.ts';
import type { InitialState, RawPresence } from '../api/wire-types.ts';

export type PresenceStatus = 'active' | 'idle' | 'offline';

/**
 * Upstream's reading of a user's presence: active when a client reported them active within the
 * offline threshold, idle when one was merely connected within it, otherwise offline.
 */
export function presenceStatus(raw: RawPresence | undefined, nowSeconds: number, offlineThresholdSeconds: number): PresenceStatus {
  if (!raw) return 'offline';
  if (nowSeconds - raw.active_timestamp < offlineThresholdSeconds) return 'active';
  if (nowSeconds - raw.idle_timestamp < offlineThresholdSeconds) return 'idle';
  return 'offline';
}

/**
 * Everyone's presence as the server last told it (`/register`, `presence` events, and the answer
 * to each report), and the server's clock against ours, so that ages are read in its seconds.
 */
export class PresenceState {
  readonly presences = signal<ReadonlyMap<number, RawPresence>>(new Map());
  /** Bumps once a ping interval: statuses age without any new data. */
  readonly tick = signal(0);
  pingIntervalSeconds = 60;
  offlineThresholdSeconds = 140;
  #lastUpdateId = -1;
  /** Server seconds minus local seconds. */
  #clockOffset = 0;

  constructor(initial: InitialState) {
    this.reset(initial);
  }

  /** Takes a fresh initial state whole (after a new registration). */
  reset(initial: InitialState): void {
    this.pingIntervalSeconds = initial.server_presence_ping_interval_seconds ?? 60;
    this.offlineThresholdSeconds = initial.server_presence_offline_threshold_seconds ?? 140;
    this.#lastUpdateId = initial.presence_last_update_id ?? -1;
    this.#clockOffset = initial.server_timestamp - Date.now() / 1000;
    this.presences.value = new Map();
    this.#merge(initial.presences ?? {});
  }

  statusOf(userId: number): PresenceStatus {
    void this.tick.value;
    return presenceStatus(this.presences.value.get(userId), Date.now() / 1000 + this.#clockOffset, this.offlineThresholdSeconds);
  }

  /** A `presence` event in the simplified format: newer timestamps for the users it names. */
  applyEvent(event: { presences?: Record<string, RawPresence>; server_timestamp?: number }): void {
    if (typeof event.server_timestamp === 'number') this.#clockOffset = event.server_timestamp - Date.now() / 1000;
    if (event.presences) this.#merge(event.presences);
  }

  /**
   * Reports this tab's user as active or idle and takes the realm's changes since the last
   * report from the answer, as upstream's web app does once a ping interval.
   */
  async report(api: ApiClient, status: 'active' | 'idle'): Promise<void> {
    const answer = await api.post<{ presences?: Record<string, RawPresence>; presence_last_update_id?: number; server_timestamp?: number }>('/users/me/presence', {
      status,
      slim_presence: true,
      last_update_id: this.#lastUpdateId,
    });
    if (typeof answer.presence_last_update_id === 'number') this.#lastUpdateId = answer.presence_last_update_id;
    this.applyEvent(answer);
    this.tick.value += 1;
  }

  #merge(presences: Record<string, RawPresence>): void {
    const next = new Map(this.presences.value);
    for (const [id, raw] of Object.entries(presences)) {
      const known = next.get(Number(id));
      // Each timestamp only moves forward: a late answer never undoes a newer event.
      next.set(Number(id), {
        active_timestamp: Math.max(raw.active_timestamp, known?.active_timestamp ?? 0),
        idle_timestamp: Math.max(raw.idle_timestamp, known?.idle_timestamp ?? 0),
      });
    }
    this.presences.value = next;
  }
}
