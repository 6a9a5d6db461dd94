import type { Engine } from '../../engine/engine.ts';
import type { SyncRefusalRow } from '../../engine/storage/rows.ts';
import { applyChanges, type ApplyOutcome } from './apply-changes.ts';
import { handleLocally } from './capture.ts';
import { HubClient, type HubFetch, HubUnreachable, ResyncNeeded } from './hub-client.ts';
import { pushOutbox } from './push-outbox.ts';
import { applySnapshot } from './resync.ts';

export interface ReplicaOptions {
  /** The replica's own engine (its own database); it need not hold a realm yet. */
  engine: Engine;
  /** How to reach the hub: `fetch`, or a stand-in the caller controls. */
  fetch: HubFetch;
  hubUrl: string;
  /** The user's credentials on the hub (the same on the replica once synced). */
  email: string;
  apiKey: string;
}

/** `data-sync`'s values (runtime contract 4): N changes not yet acknowledged by the hub. */
export type SyncStatus = 'online' | 'offline' | `pending:${number}`;

/** How many push-then-pull passes a round makes while local changes keep arriving. */
const MAX_PASSES = 5;

/**
 * One user's replica of a hub's realm (docs/SYNC.md): its user's requests go to `handle`,
 * `sync()` runs one round (push, then pull; a full resync when the hub asks for one). Rounds
 * never overlap.
 */
export class SyncReplica {
  readonly engine: Engine;
  readonly #client: HubClient;
  readonly #apiKey: string;
  #round: Promise<SyncStatus> | null = null;
  #reachable = false;

  constructor(options: ReplicaOptions) {
    this.engine = options.engine;
    this.#apiKey = options.apiKey;
    this.#client = new HubClient(options);
  }

  /** A request of the replica's user to its local engine. */
  handle(request: Request): Promise<Response> {
    return handleLocally(this.engine, request);
  }

  /** One sync round; `offline` when the hub could not be reached (nothing is lost: it runs again later). */
  sync(): Promise<SyncStatus> {
    this.#round ??= this.#run().finally(() => (this.#round = null));
    return this.#round;
  }

  /** As of the last round: `offline` if it could not reach the hub, else the changes the hub has not acknowledged. */
  async status(): Promise<SyncStatus> {
    if (!this.#reachable) return 'offline';
    const unacknowledged = (await this.engine.db.sync_outbox.toArray()).filter((row) => row.state === 'pending').length;
    return unacknowledged > 0 ? `pending:${unacknowledged}` : 'online';
  }

  /** The changes the hub refused, with its message, oldest first. */
  refusals(): Promise<SyncRefusalRow[]> {
    return this.engine.db.sync_refusals.toArray();
  }

  async #run(): Promise<SyncStatus> {
    try {
      try {
        await this.#pushAndPull();
      } catch (error) {
        if (!(error instanceof ResyncNeeded)) throw error;
        await this.#resync();
        await this.#pushAndPull();
      }
      this.#reachable = true;
    } catch (error) {
      if (!(error instanceof HubUnreachable)) throw error;
      this.#reachable = false;
    }
    return this.status();
  }

  async #pushAndPull(): Promise<void> {
    if (!(await this.engine.db.sync_replica.get(1))) await this.#resync();
    for (let pass = 0; pass < MAX_PASSES; pass++) {
      const { needsResync } = await pushOutbox(this.engine, this.#client, await this.#userId());
      if (needsResync) await this.#resync();
      if ((await this.#pull()) !== 'pending') return;
    }
  }

  async #pull(): Promise<ApplyOutcome> {
    for (;;) {
      const state = await this.engine.db.sync_replica.get(1);
      if (!state) throw new ResyncNeeded('no checkpoint');
      const page = await this.#client.pull({ hub_id: state.hub_id, epoch: state.epoch, cursor: state.cursor });
      const outcome = await applyChanges(this.engine, await this.#userId(), state.cursor, page);
      if (outcome !== 'applied') return outcome;
      if (page.realm_changed) await this.#resync();
      if (!page.more) return outcome;
    }
  }

  async #resync(): Promise<void> {
    await applySnapshot(this.engine, await this.#client.snapshot());
  }

  async #userId(): Promise<number> {
    const user = await this.engine.db.users.where('api_key').equals(this.#apiKey).first();
    if (!user) throw new ResyncNeeded('the user is not in this replica');
    return user.id;
  }
}
