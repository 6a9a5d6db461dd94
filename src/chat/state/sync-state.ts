import { signal } from '@preact/signals';
import { type ApiClient, ApiFailure } from '../api/api-client.ts';
import type { ServerEvent } from '../api/wire-types.ts';

/** A change the hub refused: the replica rolled it back to the hub's state. */
export interface SyncRefusal {
  mutation_id: number;
  method: string;
  path: string;
  msg: string;
  code: string;
  /** A refused send: its fields as sent, to give its author the text back. */
  message?: RefusedSend;
}

/** A refused send's API fields as sent (`to` an id, a name or a JSON list). */
export interface RefusedSend {
  type: string;
  to: string;
  topic?: string;
  content: string;
}

/** What a replica says of its sync with the hub (`GET /offline_realm/sync`, our extension). */
export interface ReplicaSync {
  hubUrl: string;
  /** `online`, `offline` or `pending:N`, as the page's `data-sync`. */
  status: string;
  pending: number;
  pendingIds: ReadonlySet<number>;
  lastError: string | null;
  refusals: SyncRefusal[];
}

interface SyncAnswer {
  hub_url: string;
  status: string;
  pending: number;
  pending_message_ids: number[];
  last_error: string | null;
  refusals: SyncRefusal[];
}

/**
 * The server's sync with a hub, when the server is a replica (an instance opened with
 * `/?sync=`); `null` for any other server, which answers the extension's path with a 404.
 * Kept current by `offline_realm_sync` events; a new refusal is told once through `onRefused`.
 */
export class SyncState {
  readonly replica = signal<ReplicaSync | null>(null);
  readonly #api: ApiClient;
  readonly #onRefused: (refusal: SyncRefusal) => void;
  #refusalsCount = 0;
  #told = new Set<number>();

  constructor(api: ApiClient, onRefused: (refusal: SyncRefusal) => void) {
    this.#api = api;
    this.#onRefused = onRefused;
  }

  /** Asks the server; refusals already recorded when the app starts count as told. */
  async load(tellNew = false): Promise<void> {
    let answer: SyncAnswer;
    try {
      answer = await this.#api.get<SyncAnswer>('/offline_realm/sync');
    } catch (error) {
      if (error instanceof ApiFailure && error.status === 404) this.replica.value = null;
      return;
    }
    for (const refusal of answer.refusals) {
      if (this.#told.has(refusal.mutation_id)) continue;
      this.#told.add(refusal.mutation_id);
      if (tellNew) this.#onRefused(refusal);
    }
    this.#refusalsCount = Math.max(this.#refusalsCount, answer.refusals.length);
    this.replica.value = {
      hubUrl: answer.hub_url,
      status: answer.status,
      pending: answer.pending,
      pendingIds: new Set(answer.pending_message_ids),
      lastError: answer.last_error,
      refusals: answer.refusals,
    };
  }

  applyEvent(event: ServerEvent): void {
    const current = this.replica.value;
    this.replica.value = {
      hubUrl: current?.hubUrl ?? '',
      status: event.status as string,
      pending: event.pending as number,
      pendingIds: new Set(event.pending_message_ids as number[]),
      lastError: (event.last_error as string | null) ?? null,
      refusals: current?.refusals ?? [],
    };
    const count = event.refusals_count as number;
    if (count > this.#refusalsCount) {
      this.#refusalsCount = count;
      // Before the first answer, what is recorded counts as already told (as at start).
      void this.load(current !== null);
    }
  }
}
