import { authenticate } from '../../engine/auth/basic-auth.ts';
import { RealmDirectory } from '../../engine/directory/realm-directory.ts';
import { API_PREFIX, type Engine, type HandleOptions } from '../../engine/engine.ts';
import { ApiError } from '../../engine/errors/api-error.ts';
import { errorResponse, jsonResponse } from '../../engine/http/json-response.ts';
import type { EngineEvent } from '../../engine/events/event-types.ts';
import type { SyncRefusalRow, UserRow } from '../../engine/storage/rows.ts';
import type { SyncedRequest } from '../mutations.ts';
import { MAX_REFRESH_IDS, type MutationResult, type PullAnswer, type PushedMutation } from '../protocol.ts';
import { applyChanges, type ApplyOutcome } from './apply-changes.ts';
import { changesHistoryAccess } from '../history-access.ts';
import { applyHistoryPage, historyWanted } from './channel-history.ts';
import { handleLocally } from './capture.ts';
import { checkOwnCaller, forwardedAnswer, hubUnreachableAnswer, numberedMutation } from './forward.ts';
import { type HubAnswer, HubClient, HubError, type HubFetch, HubUnreachable, ResyncNeeded } from './hub-client.ts';
import { hubReadRequest, type RelayedRead } from './hub-reads.ts';
import { pushOutbox } from './push-outbox.ts';
import { fetchableFilePath, isUploadRequest, keepFetchedFile, keepUploadedFile, keptFile, uploadBody } from './replica-files.ts';
import { applySnapshot } from './resync.ts';
import { deliverEphemeral, ephemeralRequest, type RelayedRequest, relayedToHub, storeHubPresences } from './ephemeral-relay.ts';
import { readSyncReport, type SyncReport, type SyncStatus, SYNC_STATUS_PATH, syncEvent, syncNotice } from './sync-report.ts';

export type { SyncReport, SyncStatus } from './sync-report.ts';

export interface ReplicaOptions {
  /** The replica's own engine (its own database); it need not hold a realm yet. */
  engine: Engine;
  /** How to reach the hub: `fetch`, or a stand-in the caller controls. */
  fetch: HubFetch;
  hubUrl: string;
  /** The user's credentials on the hub (the same on the replica once synced). */
  email: string;
  apiKey: string;
  /** Told each time the sync report's event fields change (the browser host sets `data-sync` from it). */
  onReport?: (report: SyncReport) => void;
}

/** How many push-then-pull passes a round makes while local changes keep arriving. */
const MAX_PASSES = 5;
/** While the hub cannot be reached, the live loop tries again this often (or at the next local change). */
export const RETRY_MS = 2_000;
/** How long one wait for the hub's next change may last before it is asked again. */
export const WAIT_SECONDS = 45;
/** A forwarded write's push is offered again once when its answer is lost (the hub answers its record). */
const FORWARD_ATTEMPTS = 2;

/**
 * One user's replica of a hub's realm (docs/SYNC.md): its user's requests go to `handle`,
 * `sync()` runs one round (push, then pull; a full resync when the hub asks for one). Rounds
 * never overlap.
 */
export class SyncReplica {
  readonly engine: Engine;
  readonly #client: HubClient;
  readonly #apiKey: string;
  readonly #hubUrl: string;
  readonly #onReport: ((report: SyncReport) => void) | undefined;
  /** The last announced event fields, as JSON: an announcement is made only when they change. */
  #announced = '';
  #announcing: Promise<void> = Promise.resolve();
  #round: Promise<SyncStatus> | null = null;
  #reachable = false;
  #lastError: Error | null = null;
  #live: { stop: AbortController; done: Promise<void> } | null = null;
  readonly #roundWaiters = new Set<() => void>();
  /** Rounds asked for so far (a change queued, the hub found out of reach): the live loop tells by it whether one came while no waiter was set. */
  #roundsWanted = 0;

  constructor(options: ReplicaOptions) {
    this.engine = options.engine;
    this.#apiKey = options.apiKey;
    this.#hubUrl = options.hubUrl;
    this.#onReport = options.onReport;
    this.#client = new HubClient({ ...options, clock: options.engine.clock, onEphemeral: (events) => void this.#deliverEphemeral(events) });
    // The live loop pushes a queued change as soon as its transaction commits (replica rule 1:
    // the outbox row is written in the action's own), before the local answer is even built.
    const queued = new WeakSet<object>();
    // Hooks must return undefined: a value would become a generated key.
    this.engine.db.sync_outbox.hook('creating', (_key, _row, tx) => {
      if (queued.has(tx)) return undefined;
      queued.add(tx);
      tx.on('complete', () => this.#wantRound());
      return undefined;
    });
  }

  /** The live loop runs a round at once: a change was queued, or a client's request found the hub out of reach (a round tells whether it still is). */
  #wantRound(): void {
    this.#roundsWanted++;
    for (const wake of [...this.#roundWaiters]) wake();
  }

  /** A request of the replica's user to its local engine; `options` as `Engine.handle` takes them, for the engine's answers. */
  async handle(request: Request, options: Pick<HandleOptions, 'writesJsonItself'> = {}): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === API_PREFIX + SYNC_STATUS_PATH) return this.#answerReport(request);
    if (isUploadRequest(request, url)) return this.#upload(request);
    const filePath = fetchableFilePath(request, url);
    if (filePath !== null) return this.#serveFile(request, filePath);
    const hubRead = hubReadRequest(request);
    if (hubRead) return this.#readOnHub(request, hubRead);
    const ephemeral = await ephemeralRequest(request);
    const outcome = await handleLocally(this.engine, request, options);
    if ('forward' in outcome) return this.#forward(request, outcome.forward);
    const { response } = outcome;
    if (ephemeral) {
      // Nothing was queued: no round, no announcement; the request goes on to the hub by itself.
      if (response.ok) void this.#relayEphemeral(request, ephemeral);
      return response;
    }
    // A change may have been queued (the live loop is already pushing it): its clients hear of it.
    if (response.ok && request.method !== 'GET' && request.method !== 'HEAD') await this.#announce();
    return response;
  }

  /**
   * A write only the hub can do (docs/SYNC.md, "Forwarded writes"), made while it can be
   * reached: pushed after every queued change, never run here, in place of a round (rounds
   * never overlap it); then pulled, so the local state holds its effect before the client hears
   * the hub's answer. The hub unreachable: `503 SYNC_HUB_UNREACHABLE`, nothing done here.
   */
  async #forward(request: Request, forward: SyncedRequest): Promise<Response> {
    const refused = await this.#refusedCaller(request);
    if (refused) return refused;
    while (this.#round) await this.#round.catch(() => undefined);
    const forwarding = this.#pushForward(forward);
    this.#round = forwarding.then(() => this.status()).finally(() => (this.#round = null));
    try {
      const result = await forwarding;
      return result ? forwardedAnswer(result) : hubUnreachableAnswer(this.#hubUrl);
    } catch (error) {
      // The hub refused the replica itself (its credentials): its words, as for any request.
      if (error instanceof HubError) return errorResponse(new ApiError(error.message, { code: error.code, status: error.status }));
      if (error instanceof ApiError) return errorResponse(error);
      throw error;
    } finally {
      await this.#announce();
    }
  }

  /**
   * `POST /user_uploads` (docs/SYNC.md, "Files"): the user's own request goes to the hub's API as
   * it came, and the client gets the hub's answer; the replica keeps the file's bytes, and a
   * round brings the attachment row. The hub unreachable: `503 SYNC_HUB_UNREACHABLE`, nothing kept.
   */
  async #upload(request: Request): Promise<Response> {
    const refused = await this.#refusedCaller(request);
    if (refused) return refused;
    const body = await uploadBody(this.engine, request);
    if (body instanceof Response) return body;
    const contentType = request.headers.get('content-type') ?? '';
    let answer: HubAnswer;
    let json: Record<string, unknown>;
    try {
      answer = await this.#client.upload(body, contentType);
      json = JSON.parse(new TextDecoder().decode(answer.bytes)) as Record<string, unknown>;
    } catch (error) {
      // An answer that is no JSON came from something between (a proxy's error page), not the hub's API.
      if (!(error instanceof HubUnreachable) && !(error instanceof SyntaxError)) throw error;
      return this.#hubLost(error);
    }
    if (answer.status === 200) {
      await keepUploadedFile(this.engine, body, contentType, json);
      // A round begun before the upload may have pulled before the hub had its row: one after it.
      while (this.#round) await this.#round.catch(() => undefined);
      await this.sync().catch(() => undefined);
    }
    return jsonResponse(json, answer.status);
  }

  /**
   * A read only the hub can answer (docs/SYNC.md, "Reads only the hub can answer"): the hub's
   * answer for the replica's user, as its API gave it; the hub unreachable: `503
   * SYNC_HUB_UNREACHABLE`, rather than an answer from rows this replica does not hold.
   */
  async #readOnHub(request: Request, read: RelayedRead): Promise<Response> {
    const refused = await this.#refusedCaller(request);
    if (refused) return refused;
    const state = await this.engine.db.sync_replica.get(1);
    if (!state) return hubUnreachableAnswer(this.#hubUrl);
    try {
      const answer = await this.#client.read({ hub_id: state.hub_id, epoch: state.epoch, ...read });
      return jsonResponse(JSON.parse(new TextDecoder().decode(answer.bytes)) as Record<string, unknown>, answer.status);
    } catch (error) {
      if (!(error instanceof HubUnreachable) && !(error instanceof SyntaxError)) throw error;
      return this.#hubLost(error);
    }
  }

  /** The refusal of a request that is not the replica's own user's (only that user may reach the hub through it); null for theirs. */
  async #refusedCaller(request: Request): Promise<Response | null> {
    try {
      await checkOwnCaller(this.engine.db, request, this.#apiKey);
      return null;
    } catch (error) {
      if (error instanceof ApiError) return errorResponse(error);
      throw error;
    }
  }

  /** A client's request needed the hub, which could not be reached (or something between answered instead): told, and answered so. */
  async #hubLost(error: HubUnreachable | SyntaxError): Promise<Response> {
    this.#lastError = error instanceof HubUnreachable ? error : new HubUnreachable(String(error));
    this.#reachable = false;
    // Else a live loop caught up with the hub before would keep waiting there, this status shown until its next round.
    this.#wantRound();
    await this.#announce();
    return hubUnreachableAnswer(this.#hubUrl);
  }

  /**
   * A request for an uploaded file: the local engine's answer, unless it lacks the file; then
   * the copy this replica fetched before, or the hub's answer for the replica's user (kept when
   * it is the file). Offline and not held: the engine's own `404`.
   */
  async #serveFile(request: Request, rest: string): Promise<Response> {
    const local = await this.engine.handle(request);
    if (local.status !== 404) return local;
    const kept = await keptFile(this.engine, rest, request.method);
    if (kept) return kept;
    if (request.headers.has('authorization')) {
      try {
        await checkOwnCaller(this.engine.db, request, this.#apiKey);
      } catch {
        return local;
      }
    }
    try {
      return await keepFetchedFile(this.engine, rest, await this.#client.file(rest), request.method);
    } catch (error) {
      if (error instanceof HubUnreachable) return local;
      throw error;
    }
  }

  /** The forwarded write's result, null when no answer of the hub's arrived; then a round, for its effect. */
  async #pushForward(forward: SyncedRequest): Promise<MutationResult | null> {
    let result: MutationResult | undefined;
    try {
      if (!(await this.engine.db.sync_replica.get(1))) await this.#resync();
      const mutation = await numberedMutation(this.engine.db, forward);
      for (let attempt = 1; !result && attempt <= FORWARD_ATTEMPTS; attempt++) result = await this.#offerForward(mutation, attempt);
    } catch (error) {
      this.#lastError = error instanceof Error ? error : new Error(String(error));
      if (!(error instanceof HubUnreachable)) throw error;
      this.#reachable = false;
      this.#wantRound();
      return null;
    }
    if (!result) return null;
    // The answer stands even if this round fails: the next one brings the effect.
    await this.#run().catch(() => undefined);
    return result;
  }

  /**
   * One push of the pending changes and the forwarded write. A lost answer is offered again
   * once (the hub answers a retry with its record: never run twice); a hub reset, after a resync.
   */
  async #offerForward(mutation: PushedMutation, attempt: number): Promise<MutationResult | undefined> {
    try {
      const pushed = await pushOutbox(this.engine, this.#client, await this.#userId(), mutation);
      if (pushed.needsResync) await this.#resync();
      return pushed.forwarded;
    } catch (error) {
      if (error instanceof ResyncNeeded) await this.#resync();
      else if (!(error instanceof HubUnreachable) || attempt === FORWARD_ATTEMPTS) throw error;
      return undefined;
    }
  }

  /**
   * The user's typing notice or presence report, sent on to the hub while it can be reached
   * (docs/SYNC.md, "Ephemeral events"), so other replicas' users see it. Ephemeral: offline, or
   * if the hub refuses it, it is dropped; the client already has the local answer.
   */
  async #relayEphemeral(request: Request, relayed: RelayedRequest): Promise<void> {
    const state = this.#reachable ? await this.engine.db.sync_replica.get(1) : undefined;
    if (!state) return;
    try {
      await checkOwnCaller(this.engine.db, request, this.#apiKey);
      const answer = await this.#client.ephemeral({ hub_id: state.hub_id, epoch: state.epoch, ...relayedToHub(relayed) });
      await storeHubPresences(this.engine, answer);
    } catch {
      // Ephemeral: a lost or refused notice is outdated by the next one, a presence report by the next ping.
    }
  }

  /** Typing notices and presence changes of others, from a wait's answer, to the user's local queues and presence rows. */
  async #deliverEphemeral(events: EngineEvent[]): Promise<void> {
    try {
      await deliverEphemeral(this.engine, await this.#userId(), events);
    } catch {
      // No user yet (a resync under way): the notices are outdated by the time it is done.
    }
  }

  /** The sync state for pages and clients: status, pending changes, the last error, the refusals (newest first). */
  report(): Promise<SyncReport> {
    return readSyncReport(this.engine.db, this.#reachable, this.#lastError);
  }

  /** `GET /api/v1/offline_realm/sync` (our extension, docs/SYNC.md), for the replica's authenticated user. */
  async #answerReport(request: Request): Promise<Response> {
    try {
      if (request.method !== 'GET') throw new ApiError('Method Not Allowed', { status: 405 });
      authenticate(await RealmDirectory.load(this.engine.db), request.headers.get('authorization'));
    } catch (error) {
      if (error instanceof ApiError) return errorResponse(error);
      throw error;
    }
    const { refusals_count: _count, ...report } = await this.report();
    return jsonResponse({ result: 'success', msg: '', hub_url: this.#hubUrl, ...report });
  }

  /**
   * Tells the user's local queues (`offline_realm_sync`) and `onReport` when the status, the
   * pending changes, the last error or the number of refusals changed. One at a time, so two
   * announcements never cross.
   */
  #announce(): Promise<void> {
    this.#announcing = this.#announcing.then(async () => {
      const report = await this.report();
      const fields = JSON.stringify(syncEvent(report));
      if (fields === this.#announced) return;
      this.#announced = fields;
      const me = await this.#me();
      if (me) this.engine.queues.deliver([syncNotice(me.id, report)]);
      this.#onReport?.(report);
    }).catch((error: unknown) => {
      // A report still running when its engine closes (a stop, a test's end) has no one to tell.
      if (this.engine.db.isOpen()) console.error('offline-realm: could not report the sync status', error);
    });
    return this.#announcing;
  }

  /** The last round's failure: the hub unreachable, or refusing this replica (bad credentials); null once a round succeeds. */
  get lastError(): Error | null {
    return this.#lastError;
  }

  /**
   * Keeps the replica in sync until `stop()`: a round at once, then one after each local change
   * and each time the hub reports a change (a long-poll of `/sync/v1/wait`); while the hub cannot
   * be reached, again every `RETRY_MS` on the engine's clock.
   */
  start(): void {
    if (this.#live) return;
    const stop = new AbortController();
    this.#live = { stop, done: this.#runLive(stop.signal) };
  }

  async stop(): Promise<void> {
    const live = this.#live;
    if (!live) return;
    live.stop.abort();
    await live.done;
    this.#live = null;
  }

  /** One sync round; `offline` when the hub could not be reached (nothing is lost: it runs again later). */
  sync(): Promise<SyncStatus> {
    if (this.#round) return this.#round;
    this.#round = this.#run().finally(() => (this.#round = null));
    // Announced after the round, not awaited by it: the live loop moves on at once.
    void this.#round.then(() => this.#announce(), () => this.#announce());
    return this.#round;
  }

  /** As of the last round: `offline` if it could not reach the hub, else the changes the hub has not acknowledged. */
  async status(): Promise<SyncStatus> {
    return (await this.report()).status;
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
      this.#lastError = null;
    } catch (error) {
      this.#lastError = error instanceof Error ? error : new Error(String(error));
      if (!(error instanceof HubUnreachable)) throw error;
      this.#reachable = false;
    }
    return this.status();
  }

  async #runLive(stop: AbortSignal): Promise<void> {
    /** Whether the last wait's page left this replica at the hub's state, so no round is needed before the next wait. */
    let caughtUp = false;
    /** The rounds asked for when the last waiter was set: one asked since (even before this waiter) is run. */
    let seen = this.#roundsWanted;
    /** The last wait: once aborted it settles by itself (an abort takes the HTTP client a while to report). */
    let lastWait: Promise<boolean> = Promise.resolve(false);
    while (!stop.aborted) {
      const roundWanted = this.#nextRoundWanted(stop);
      const skipRound = caughtUp && this.#roundsWanted === seen;
      seen = this.#roundsWanted;
      caughtUp = false;
      // A refusal of the replica itself (its credentials) is retried as if offline; `lastError` tells it.
      const status: SyncStatus = skipRound ? 'online' : await this.sync().catch(() => 'offline' as const);
      if (stop.aborted) break;
      if (status.startsWith('pending:')) continue;
      const waiting = new AbortController();
      const next: Promise<boolean> =
        status === 'offline'
          ? this.#delay(RETRY_MS, waiting.signal).then(() => false)
          : this.#hubChange(AbortSignal.any([stop, waiting.signal]));
      lastWait = next;
      caughtUp = await Promise.race([roundWanted.then(() => false), next]);
      // The round starts without waiting for the aborted wait: a page that wait already holds is
      // applied under the usual checks (nothing while a change is pending, only from the
      // checkpoint it was asked from), so it cannot clash with the round.
      waiting.abort();
    }
    // A wait in flight ends (with what it applies) before `stop()` returns.
    await lastWait;
  }

  #nextRoundWanted(stop: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        this.#roundWaiters.delete(wake);
        stop.removeEventListener('abort', wake);
        resolve();
      };
      this.#roundWaiters.add(wake);
      stop.addEventListener('abort', wake, { once: true });
    });
  }

  /** Waits for the hub's next change and applies the page it brings; true when that page left nothing for a round to pull. */
  async #hubChange(signal: AbortSignal): Promise<boolean> {
    const state = await this.engine.db.sync_replica.get(1);
    if (!state) return false;
    const body = { hub_id: state.hub_id, epoch: state.epoch, cursor: state.cursor, timeout_seconds: WAIT_SECONDS, client_id: state.client_id };
    const page = await this.#client.wait(body, signal).catch(() => undefined);
    // Answered without a change (its time ran out, or it brought ephemeral events only): still at the hub's state.
    if (page === null) return true;
    // Applied at once for the local clients' sake; what this leaves (a resync, a pending change, more pages, history to fetch) the next round does.
    if (!page || page.realm_changed) return false;
    const outcome = await applyChanges(this.engine, await this.#userId(), state.cursor, page).catch(() => 'failed' as const);
    // Only a page that changed channels or users can have given access to a channel's history.
    return outcome === 'applied' && !page.more && (!changesHistoryAccess(page) || (await this.#historyWanted()).length === 0);
  }

  #delay(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const timer = this.engine.clock.setTimeout(resolve, ms);
      signal.addEventListener('abort', () => {
        this.engine.clock.clearTimeout(timer);
        resolve();
      }, { once: true });
    });
  }

  async #pushAndPull(): Promise<void> {
    await this.#exchangeChanges();
    await this.#fetchHistory();
  }

  /** The pending changes pushed and the hub's pulled, again while local changes keep coming (at most `MAX_PASSES` times). */
  async #exchangeChanges(): Promise<void> {
    // No checkpoint yet: `#userId` (no realm) or `pushOutbox` (no checkpoint) asks for the resync.
    for (let pass = 0; pass < MAX_PASSES; pass++) {
      const { needsResync } = await pushOutbox(this.engine, this.#client, await this.#userId());
      if (needsResync) await this.#resync();
      if ((await this.#pull()) !== 'pending') return;
    }
  }

  /**
   * The channels whose history the user came to read since the replica's last look, a page at a
   * time (docs/SYNC.md, "Channel history"). Between pages the changes go both ways, so a long
   * history holds back neither the user's changes nor the hub's.
   */
  async #fetchHistory(): Promise<void> {
    const me = await this.#me();
    const state = await this.engine.db.sync_replica.get(1);
    if (!me || !state) return;
    for (const channelId of await this.#historyWanted()) {
      let before: number | undefined;
      do {
        const asked = { hub_id: state.hub_id, epoch: state.epoch, channel_id: channelId, ...(before !== undefined && { before }) };
        const page = await this.#client.history(asked).catch((error: unknown) => {
          // A hub older than channel history has no such path: the replica holds what it received, as before.
          if (error instanceof HubError && error.status === 404) return null;
          throw error;
        });
        if (!page) return;
        await applyHistoryPage(this.engine, me.id, state, channelId, page);
        before = page.before ?? undefined;
        if (before !== undefined && !(await this.#exchangeBetweenPages(state))) return;
      } while (before !== undefined);
    }
  }

  /** The changes of both sides, exchanged between two history pages; false when a resync meanwhile (a new hub or epoch) made the fetch moot. */
  async #exchangeBetweenPages(fetching: { hub_id: string; epoch: string }): Promise<boolean> {
    await this.#exchangeChanges();
    const now = await this.engine.db.sync_replica.get(1);
    return now?.hub_id === fetching.hub_id && now.epoch === fetching.epoch;
  }

  async #historyWanted(): Promise<number[]> {
    const me = await this.#me();
    return me ? historyWanted(this.engine, await RealmDirectory.load(this.engine.db), me) : [];
  }

  async #pull(): Promise<ApplyOutcome> {
    for (;;) {
      const state = await this.engine.db.sync_replica.get(1);
      if (!state) throw new ResyncNeeded('no checkpoint');
      const page = await this.#client.pull({ hub_id: state.hub_id, epoch: state.epoch, cursor: state.cursor });
      // The snapshot replaces what the page would bring. Applied first, the page would move the
      // checkpoint past the resync's entry, and a snapshot that then failed would never be asked again.
      if (page.realm_changed) {
        await this.#resync();
        continue;
      }
      const outcome = await applyChanges(this.engine, await this.#userId(), state.cursor, page);
      if (outcome !== 'applied') return outcome;
      if (!page.more) {
        await this.#refresh();
        return outcome;
      }
    }
  }

  /**
   * The messages settled changes touched here that no pull brought since (the hub's run of a
   * change met another state and touched fewer), read again from the hub and applied as a page:
   * no local effect outlives the hub's verdict (docs/SYNC.md, "Client mutation ids").
   */
  async #refresh(): Promise<void> {
    const state = await this.engine.db.sync_replica.get(1);
    const ids = state?.refresh_ids?.slice(0, MAX_REFRESH_IDS) ?? [];
    if (!state || ids.length === 0) return;
    const answer = await this.#client.refresh({ hub_id: state.hub_id, epoch: state.epoch, ids }).catch((error: unknown) => {
      // A hub older than this call: the ids are dropped, as before it.
      if (error instanceof HubError && error.status === 404) return { messages: [], deleted: [] };
      throw error;
    });
    const page: PullAnswer = { hub_id: state.hub_id, epoch: state.epoch, cursor: state.cursor, more: false, realm_changed: false, ...answer };
    await applyChanges(this.engine, await this.#userId(), state.cursor, page, ids);
  }

  async #resync(): Promise<void> {
    await applySnapshot(this.engine, await this.#client.snapshot());
  }

  async #userId(): Promise<number> {
    const user = await this.#me();
    if (!user) throw new ResyncNeeded('the user is not in this replica');
    return user.id;
  }

  /** The replica's user, from the directory the engine keeps in memory until its tables are written (no read per round or page); none before the first snapshot. */
  async #me(): Promise<UserRow | undefined> {
    const directory = await RealmDirectory.load(this.engine.db).catch((error: unknown) => {
      if (error instanceof ApiError && error.code === 'SERVER_NOT_READY') return null;
      throw error;
    });
    return directory?.usersByApiKey.get(this.#apiKey);
  }
}
