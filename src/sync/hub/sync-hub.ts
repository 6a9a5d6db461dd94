import type { z } from 'zod';
import { authenticate } from '../../engine/auth/basic-auth.ts';
import { RealmDirectory } from '../../engine/directory/realm-directory.ts';
import { API_PREFIX, type Engine, type HandleOptions } from '../../engine/engine.ts';
import { ApiError } from '../../engine/errors/api-error.ts';
import type { EngineEvent } from '../../engine/events/event-types.ts';
import { platformResponse } from '../../engine/http/json-answer-response.ts';
import { errorResponse, internalErrorResponse, jsonResponse } from '../../engine/http/json-response.ts';
import { readSnapshot } from '../../engine/services/run-action.ts';
import { bindToTransaction } from '../../engine/storage/bound-database.ts';
import type { SyncHubRow, UserRow } from '../../engine/storage/rows.ts';
import type { RealmDatabase } from '../../engine/storage/database.ts';
import { readBoundedBody } from '../../engine/http/bounded-body.ts';
import { EPHEMERAL_ACK_VERSION, ephemeralBody, type EphemeralMark, FILE_PATH_PREFIX, HISTORY_PATH, historyBody, HUB_READ_ROUTE, hubReadBody, MAX_HISTORY_MESSAGES, type PullAnswer, pullBody, pushBody, REFRESH_PATH, refreshBody, RESYNC_NEEDED, SYNC_PREFIX, syncVersionOf, UPLOAD_PATH, waitBody } from '../protocol.ts';
import { ChangeSignal } from './change-signal.ts';
import { EphemeralRelay, type Relay } from './ephemeral-relay.ts';
import { historyPage } from './history.ts';
import { runUpload, serveFile } from './hub-files.ts';
import { currentSeq, hubIdentity } from './hub-identity.ts';
import { PULL_TABLES, readChanges, refreshedMessages } from './pull.ts';
import { applyMutations } from './push.ts';
import { runRelayedRead, runRelayedRequest } from './relayed-request.ts';
import { userSnapshot } from './snapshot.ts';

const ROUTES = new Set(['GET /snapshot', 'POST /push', 'POST /pull', `POST ${HISTORY_PATH}`, `POST ${HUB_READ_ROUTE}`, `POST ${REFRESH_PATH}`, 'POST /wait', 'POST /ephemeral', 'POST /fetch_api_key', `POST ${UPLOAD_PATH}`]);

/** A push or pull body is small JSON; a full push of 500 mutations stays far below this. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;

/**
 * The hub side of sync (docs/SYNC.md): `/sync/v1/snapshot`, `/push`, `/pull`, `/messages`, `/history`, `/read`, `/wait`, `/ephemeral`, `/upload` and `/file/...` on an engine
 * whose `writeJournal` is `syncChangeJournal`. Transport-free as the engine is: a Request in,
 * a Response out; every call authenticates as the API does.
 */
export class SyncHub {
  readonly #engine: Engine;
  /** Pushes of one client run one at a time, so its mutation ids are checked in order. */
  readonly #clientLocks = new Map<string, Promise<unknown>>();
  readonly #changes: ChangeSignal;
  readonly #ephemeral: EphemeralRelay;

  constructor(engine: Engine) {
    this.#engine = engine;
    this.#changes = new ChangeSignal(engine.db, engine.clock);
    this.#ephemeral = new EphemeralRelay(engine);
  }

  static isSyncPath(pathname: string): boolean {
    return pathname.startsWith(`${SYNC_PREFIX}/`);
  }

  /**
   * As `Engine.handle`, with its options for hosts. `clientAddress`: the caller's, for the login
   * limits of `/sync/v1/fetch_api_key` (as the API's).
   */
  async handle(request: Request, options: Pick<HandleOptions, 'clientAddress' | 'writesJsonItself'> = {}): Promise<Response> {
    const response = await this.#answer(request, options.clientAddress);
    return options.writesJsonItself ? response : platformResponse(response);
  }

  async #answer(request: Request, clientAddress: string | undefined): Promise<Response> {
    try {
      return await this.#dispatch(request, clientAddress);
    } catch (error) {
      if (error instanceof ApiError) return errorResponse(error);
      console.error('offline-realm: sync hub error', error);
      return internalErrorResponse();
    }
  }

  async #dispatch(request: Request, clientAddress: string | undefined): Promise<Response> {
    const path = new URL(request.url).pathname.slice(SYNC_PREFIX.length);
    const route = `${request.method} ${path}`;
    const fileRest = request.method === 'GET' && path.startsWith(FILE_PATH_PREFIX) ? path.slice(FILE_PATH_PREFIX.length) : null;
    if (!ROUTES.has(route) && fileRest === null) {
      throw new ApiError('Not Found', { status: 404 });
    }
    const engine = this.#engine;
    // A browser replica's first login: the API's own fetch_api_key, at a path its origin's Service Worker does not relay.
    if (route === 'POST /fetch_api_key') {
      const url = new URL(request.url);
      return engine.handle(new Request(new URL(`${API_PREFIX}/fetch_api_key`, url), request), { clientAddress });
    }
    // The API authenticates an upload itself, before its body is read.
    if (route === `POST ${UPLOAD_PATH}`) return runUpload(engine, request);
    const caller = authenticate(await RealmDirectory.load(engine.db), request.headers.get('authorization'));
    // Authenticated first: over sync, a file's address alone is not enough.
    if (fileRest !== null) return serveFile(engine, request, fileRest);
    const hub = await hubIdentity(engine.db);
    if (route === 'GET /snapshot') {
      const snapshot = await readAsCaller(engine, caller, (db, now) => userSnapshot(db, now, syncVersionOf(request)));
      return success({ hub_id: hub.hub_id, epoch: hub.epoch, ...snapshot });
    }
    if (route === 'POST /pull') {
      const body = await readBody(request, pullBody);
      checkIdentity(hub, body);
      return success(await pullAnswer(engine, hub, caller, body.cursor, syncVersionOf(request), body.limit));
    }
    if (route === `POST ${HISTORY_PATH}`) {
      const body = await readBody(request, historyBody);
      checkIdentity(hub, body);
      const page = await readAsCaller(engine, caller, (db, now) => historyPage(db, now, body.channel_id, body.before ?? Number.MAX_SAFE_INTEGER, MAX_HISTORY_MESSAGES));
      return success(page);
    }
    if (route === 'POST /wait') {
      const body = await readBody(request, waitBody);
      checkIdentity(hub, body);
      // Waiting first, then reading: a change committed in between still wakes this call.
      const done = new AbortController();
      const next = this.#changes.next(body.timeout_seconds * 1000, AbortSignal.any([request.signal, done.signal]));
      // A replica naming itself is also woken by a typing notice or presence change for its user (docs/SYNC.md, "Ephemeral events").
      const relay = body.client_id === undefined ? null : this.#ephemeral.open(caller.id, body.client_id, body.ephemeral_ack);
      const arrival = relay?.arrival(AbortSignal.any([request.signal, done.signal])) ?? next;
      const changed = (await currentSeq(engine.db)) > body.cursor || (await Promise.race([next, arrival]));
      done.abort();
      const version = syncVersionOf(request);
      const ephemeral = relay ? ephemeralAnswer(relay, version >= EPHEMERAL_ACK_VERSION) : {};
      if (!changed) return success({ changed: false, ...ephemeral });
      // The page a pull would answer now comes along: the replica saves a round trip.
      return success({ changed: true, page: await pullAnswer(engine, hub, caller, body.cursor, version), ...ephemeral });
    }
    if (route === `POST ${REFRESH_PATH}`) {
      const body = await readBody(request, refreshBody);
      checkIdentity(hub, body);
      return success(await readAsCaller(engine, caller, (db, now) => refreshedMessages(db, now, body.ids, syncVersionOf(request))));
    }
    if (route === `POST ${HUB_READ_ROUTE}`) {
      const body = await readBody(request, hubReadBody);
      checkIdentity(hub, body);
      return runRelayedRead(engine, request, body);
    }
    if (route === 'POST /ephemeral') {
      const body = await readBody(request, ephemeralBody);
      checkIdentity(hub, body);
      return runRelayedRequest(engine, request, body);
    }
    const body = await readBody(request, pushBody);
    checkIdentity(hub, body);
    const results = await this.#serialized(body.client_id, () =>
      applyMutations(engine, caller as UserRow, request.headers.get('authorization')!, body.client_id, body.mutations),
    );
    return success({ hub_id: hub.hub_id, epoch: hub.epoch, results });
  }

  async #serialized<T>(clientId: string, work: () => Promise<T>): Promise<T> {
    const before = this.#clientLocks.get(clientId) ?? Promise.resolve();
    const run = before.then(work, work);
    const settled = run.catch(() => undefined);
    this.#clientLocks.set(clientId, settled);
    try {
      return await run;
    } finally {
      if (this.#clientLocks.get(clientId) === settled) this.#clientLocks.delete(clientId);
    }
  }
}

/** The caller's changes after `cursor`, as a pull answers them to a replica of `version`. */
/**
 * A wait's typing notices and presence changes. A replica of version 4 acknowledges them on its
 * next wait (`ephemeral_until` tells it how far): one that gave up on this wait gets them again.
 */
function ephemeralAnswer(relay: Relay, acknowledgedByReplica: boolean): { ephemeral: EngineEvent[]; ephemeral_until?: EphemeralMark } {
  const { events, until } = relay.take(!acknowledgedByReplica);
  return acknowledgedByReplica ? { ephemeral: events, ephemeral_until: until } : { ephemeral: events };
}

async function pullAnswer(engine: Engine, hub: SyncHubRow, caller: UserRow, cursor: number, version: number, limit?: number): Promise<PullAnswer> {
  const tables = ['counters', ...PULL_TABLES].map((name) => engine.db.table(name));
  const changes = await engine.db.transaction('r', tables, async (tx) => {
    const db = bindToTransaction(engine.db, tx);
    // Also the request that puts the directory cache after writes in flight (`readSnapshot`).
    if (cursor > (await currentSeq(db))) throw resyncNeeded(hub, 'The checkpoint is ahead of this hub');
    return readChanges(db, await callerNow(db, caller), cursor, limit, version);
  });
  return { hub_id: hub.hub_id, epoch: hub.epoch, ...changes };
}

/**
 * The caller as the read's transaction finds it: authenticated before it began, the caller's
 * role may have changed since, and a role decides what the caller sees (a snapshot filtered by
 * the role before a change, with the rows after it, held the wrong channels).
 */
async function callerNow(db: RealmDatabase, caller: UserRow): Promise<UserRow> {
  return (await db.users.get(caller.id)) ?? caller;
}

/** A read snapshot for the caller as its transaction finds them. */
const readAsCaller = <T>(engine: Engine, caller: UserRow, read: (db: RealmDatabase, caller: UserRow) => Promise<T>): Promise<T> =>
  readSnapshot(engine, async (db) => read(db, await callerNow(db, caller)));

function checkIdentity(hub: SyncHubRow, body: { hub_id: string; epoch: string }): void {
  if (body.hub_id !== hub.hub_id || body.epoch !== hub.epoch) throw resyncNeeded(hub, 'This hub was reset: a full resync is needed');
}

const resyncNeeded = (hub: SyncHubRow, msg: string): ApiError =>
  new ApiError(msg, { code: RESYNC_NEEDED, status: 409, extra: { hub_id: hub.hub_id, epoch: hub.epoch } });

const success = (data: object): Response => jsonResponse({ result: 'success', msg: '', ...data });

async function readBody<T extends z.ZodType>(request: Request, schema: T): Promise<z.output<T>> {
  const body = await readBoundedBody(request, MAX_BODY_BYTES);
  if (!body) throw new ApiError('Request body too large', { status: 413 });
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(body));
  } catch {
    throw new ApiError('Malformed JSON');
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ApiError(`Invalid ${issue.path.join('.') || 'body'}: ${issue.message}`);
  }
  return parsed.data;
}
