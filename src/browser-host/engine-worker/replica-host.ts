import { API_PREFIX, type Engine, type HandleOptions } from '../../engine/engine.ts';
import { readBoundedBody } from '../../engine/http/bounded-body.ts';
import { jsonResponse } from '../../engine/http/json-response.ts';
import { asWriteInFlight } from '../../engine/services/run-action.ts';
import { type HubFetch, logInOnHub } from '../../sync/replica/hub-client.ts';
import { SyncReplica, type SyncReport } from '../../sync/replica/sync-replica.ts';
import type { ReplicaLinkStore } from './replica-link-store.ts';

export interface ReplicaHostOptions {
  engine: Engine;
  store: ReplicaLinkStore;
  /** How the engine worker reaches the hub (its own `fetch`). */
  fetch: HubFetch;
  /** Each change of the sync report (the pages' `data-sync`). */
  onReport(report: SyncReport): void;
}

/** A login form's body: an address and a password. */
const MAX_LOGIN_BODY_BYTES = 64 * 1024;
const FETCH_API_KEY = `${API_PREFIX}/fetch_api_key`;

/**
 * This browser as a replica of a hub (docs/SYNC.md, "In the browser"). Until someone logs in,
 * the database holds no realm: the first `POST /api/v1/fetch_api_key` is checked by the hub
 * (at `/sync/v1/fetch_api_key`, which the Service Worker does not relay), and with the key it
 * answers the replica takes that user's snapshot and starts its live loop. From then on every
 * request goes to the `SyncReplica`, and logging in again is answered locally, offline too.
 */
export class ReplicaHost {
  readonly hubUrl: string;
  readonly #options: ReplicaHostOptions;
  #replica: SyncReplica | null = null;
  /** First logins run one at a time: the second finds the replica the first made. */
  #logins: Promise<unknown> = Promise.resolve();

  private constructor(options: ReplicaHostOptions, hubUrl: string) {
    this.#options = options;
    this.hubUrl = hubUrl;
  }

  /** The replica this browser already is (a link stored), its live loop running if someone has logged in; null if none. */
  static async resume(options: ReplicaHostOptions): Promise<ReplicaHost | null> {
    const link = await options.store.get();
    if (!link) return null;
    const host = new ReplicaHost(options, link.hub_url);
    if (link.email !== undefined && link.api_key !== undefined) {
      host.#replica = host.#newReplica(link.email, link.api_key);
      host.#replica.start();
    }
    return host;
  }

  /** Makes this browser a replica of `hubUrl`: the local realm is deleted, the link stored; the first login brings the hub's data. */
  static async join(options: ReplicaHostOptions, hubUrl: string): Promise<ReplicaHost> {
    const { engine } = options;
    engine.queues.close();
    await asWriteInFlight(engine.db, () =>
      engine.db.transaction('rw', engine.db.tables, async () => {
        for (const table of engine.db.tables) await table.clear();
      }),
    );
    await options.store.put({ hub_url: hubUrl });
    return new ReplicaHost(options, hubUrl);
  }

  handle(request: Request, options: Pick<HandleOptions, 'writesJsonItself'> = {}): Promise<Response> {
    if (this.#replica) return this.#replica.handle(request, options);
    if (request.method === 'POST' && new URL(request.url).pathname === FETCH_API_KEY) return this.#firstLogin(request);
    return this.#options.engine.handle(request, options);
  }

  /** The sync report, once someone has logged in. */
  report(): Promise<SyncReport | null> {
    return this.#replica ? this.#replica.report() : Promise.resolve(null);
  }

  async stop(): Promise<void> {
    await this.#replica?.stop();
  }

  #firstLogin(request: Request): Promise<Response> {
    const run = this.#logins.then(() => (this.#replica ? this.#replica.handle(request) : this.#logInOnHub(request)));
    this.#logins = run.catch(() => undefined);
    return run;
  }

  async #logInOnHub(request: Request): Promise<Response> {
    const body = await readBoundedBody(request, MAX_LOGIN_BODY_BYTES);
    if (!body) return error(413, 'Request body too large', 'BAD_REQUEST');
    const { engine, fetch } = this.#options;
    let json: Record<string, unknown>;
    let status: number;
    try {
      const contentType = request.headers.get('content-type') ?? 'application/x-www-form-urlencoded';
      const answer = await logInOnHub({ fetch, clock: engine.clock, hubUrl: this.hubUrl }, body, contentType);
      status = answer.status;
      json = JSON.parse(new TextDecoder().decode(answer.bytes)) as Record<string, unknown>;
    } catch (failure) {
      return this.#unreachable(failure);
    }
    if (status < 200 || status >= 300) return jsonResponse(json, status);
    if (typeof json.email !== 'string' || typeof json.api_key !== 'string') return error(502, 'The hub answered the login without a key', 'SYNC_HUB_ERROR');

    const replica = this.#newReplica(json.email, json.api_key);
    try {
      if ((await replica.sync()) === 'offline') return this.#unreachable(replica.lastError);
    } catch (failure) {
      return error(502, `The hub refused this replica: ${failure instanceof Error ? failure.message : String(failure)}`, 'SYNC_HUB_ERROR');
    }
    await this.#options.store.put({ hub_url: this.hubUrl, email: json.email, api_key: json.api_key });
    this.#replica = replica;
    replica.start();
    return jsonResponse(json);
  }

  #newReplica(email: string, apiKey: string): SyncReplica {
    const { engine, fetch, onReport } = this.#options;
    return new SyncReplica({ engine, fetch, hubUrl: this.hubUrl, email, apiKey, onReport });
  }

  #unreachable(failure: unknown): Response {
    const reason = failure instanceof Error ? failure.message : String(failure);
    return error(503, `The hub at ${this.hubUrl} cannot be reached (${reason}); log in once while it can`, 'SYNC_HUB_UNREACHABLE');
  }
}

const error = (status: number, msg: string, code: string): Response => jsonResponse({ result: 'error', msg, code }, status);
