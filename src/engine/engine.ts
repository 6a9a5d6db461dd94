import { type Clock, systemClock } from './clock/clock.ts';
import { authenticate } from './auth/basic-auth.ts';
import { LoginLimits } from './services/login-limits.ts';
import { EventQueues } from './events/event-queues.ts';
import { ApiError } from './errors/api-error.ts';
import type { RequestContext, TransactionHook } from './http/endpoint.ts';
import { platformResponse } from './http/json-answer-response.ts';
import { errorResponse, internalErrorResponse, jsonResponse, successResponse } from './http/json-response.ts';
import { readRequestParams } from './http/request-params.ts';
import { RealmDirectory, watchDirectoryTables } from './directory/realm-directory.ts';
import { Router } from './http/router.ts';
import { ALL_ENDPOINTS } from './routes/index.ts';
import { loadScenario } from './scenario/load-scenario.ts';
import { DeliveryScheduler } from './scheduler/delivery-scheduler.ts';
import { type DatabaseOptions, RealmDatabase } from './storage/database.ts';
import { fillStoredPlaces } from './storage/stored-places.ts';
import type { EngineServices } from './services/engine-services.ts';
import type { WriteJournal } from './services/action-scope.ts';
import type { RealmRow, UserRow } from './storage/rows.ts';
import { MemoryUploadStore, type UploadStore } from './storage/upload-store.ts';
import { TemporaryUploadUrls } from './services/temporary-upload-urls.ts';
import { isUploadedFilePath, serveUploadedFile } from './routes/upload-files.ts';
import { fileTooLarge, maxFileUploadBytes, MULTIPART_OVERHEAD_BYTES } from './validation/upload-limits.ts';

export { API_PREFIX } from './wire/paths.ts';
import { API_PREFIX } from './wire/paths.ts';

export interface EngineOptions extends DatabaseOptions {
  /** An already constructed database (e.g. one made durable by the Node host). */
  db?: RealmDatabase;
  clock?: Clock;
  /** Where uploaded files' bytes live; default: in memory, gone with the engine. */
  uploads?: UploadStore;
  /** PBKDF2 iterations for new password hashes; tests lower it to stay fast. */
  passwordIterations?: number;
  /** Called after each API request with its outcome (the browser console's live log). */
  onRequest?: (entry: RequestLogEntry) => void;
  /** Called inside every action's transaction with its notices (the sync hub's change feed). */
  writeJournal?: WriteJournal;
}

/** What a host knows of a request beyond the Request itself. */
export interface HandleOptions {
  /** The peer's network address (the Node host's socket); per-address rate limits use it. */
  clientAddress?: string;
  /**
   * Runs inside the transaction of a `write` endpoint, after it succeeded, with its answer (the
   * fields its client receives, `ignored_parameters_unsupported` included): what
   * must commit with the change or not at all (a sync outbox row, a hub's mutation record). A
   * request to any other kind of endpoint is refused when this is given.
   */
  inTransaction?: TransactionHook;
  /**
   * The host writes JSON answers itself, from `unreadJsonAnswer` (the Node host): they come as
   * Responses whose platform object is built only if something reads them as one. Otherwise
   * every answer is the platform's own Response, fit for any native code (`respondWith`).
   */
  writesJsonItself?: boolean;
}

export interface RequestLogEntry {
  method: string;
  path: string;
  status: number;
  userId: number | null;
  ms: number;
}

/**
 * The whole API, transport-free: a WHATWG Request in, a Response out. Hosts (browser worker,
 * Node HTTP, msw) only move requests to `handle` and responses back.
 */
export class Engine implements EngineServices {
  readonly db: RealmDatabase;
  readonly clock: Clock;
  readonly queues: EventQueues;
  readonly uploads: UploadStore;
  readonly temporaryUploadUrls: TemporaryUploadUrls;
  readonly router = new Router();
  /** Sends scheduled messages and reminders when they fall due. */
  readonly scheduler: DeliveryScheduler;
  readonly passwordIterations: number | undefined;
  readonly loginLimits: LoginLimits;
  readonly writeJournal: WriteJournal | undefined;
  readonly #onRequest: EngineOptions['onRequest'];

  private constructor(db: RealmDatabase, options: EngineOptions) {
    this.db = db;
    // Before any request: the directory cache must see every write to the tables it reads.
    watchDirectoryTables(db);
    this.clock = options.clock ?? systemClock;
    this.queues = new EventQueues(this.clock);
    this.uploads = options.uploads ?? new MemoryUploadStore();
    this.temporaryUploadUrls = new TemporaryUploadUrls(this.clock);
    this.passwordIterations = options.passwordIterations;
    this.loginLimits = new LoginLimits(this.clock);
    this.#onRequest = options.onRequest;
    this.writeJournal = options.writeJournal;
    for (const endpoint of ALL_ENDPOINTS) this.router.add(endpoint);
    this.scheduler = new DeliveryScheduler(this);
  }

  static async create(options: EngineOptions = {}): Promise<Engine> {
    const db = options.db ?? new RealmDatabase(options);
    if (!db.isOpen()) await db.open();
    await fillStoredPlaces(db);
    const engine = new Engine(db, options);
    // Whatever fell due while no engine was running is delivered now.
    engine.scheduler.start();
    return engine;
  }

  /** Seconds since the epoch, from the engine's clock. */
  nowSeconds(): number {
    return Math.floor(this.clock.now() / 1000);
  }

  async realm(): Promise<RealmRow> {
    const realm = await this.db.realm.get(1);
    if (!realm) throw new ApiError('This server has no realm loaded yet', { code: 'SERVER_NOT_READY', status: 500 });
    return realm;
  }

  /** Replaces the whole realm with the one a scenario describes (nothing written on error). */
  async loadScenario(scenario: unknown): Promise<void> {
    this.queues.close();
    this.scheduler.stop();
    try {
      await loadScenario(this, scenario);
    } finally {
      this.scheduler.start();
    }
    // A new realm has no uploads: the old realm's files go.
    await this.uploads.retainOnly(new Set());
  }

  async handle(request: Request, options: HandleOptions = {}): Promise<Response> {
    const started = this.clock.now();
    const url = new URL(request.url);
    let userId: number | null = null;
    let response: Response;
    try {
      const result = await this.#dispatch(request, url, options);
      userId = result.userId;
      response = result.response;
    } catch (error) {
      if (error instanceof ApiError) {
        response = errorResponse(error);
      } else {
        // Never leak a stack trace; the failed action's transaction has already rolled back.
        console.error('offline-realm: internal error', error);
        response = internalErrorResponse();
      }
    }
    if (request.method === 'HEAD') response = new Response(null, response);
    this.#onRequest?.({
      method: request.method,
      path: url.pathname,
      status: response.status,
      userId,
      ms: this.clock.now() - started,
    });
    return options.writesJsonItself ? response : platformResponse(response);
  }

  async #dispatch(request: Request, url: URL, options: HandleOptions): Promise<{ response: Response; userId: number | null }> {
    if (isUploadedFilePath(url.pathname)) return { response: await serveUploadedFile(this, request, url), userId: null };
    if (!url.pathname.startsWith(`${API_PREFIX}/`)) {
      return { response: jsonResponse({ result: 'error', msg: 'Not Found', code: 'BAD_REQUEST' }, 404), userId: null };
    }
    const match = this.router.match(request.method, url.pathname.slice(API_PREFIX.length));
    if (match.kind === 'not-found') {
      return { response: jsonResponse({ result: 'error', msg: 'Not Found', code: 'BAD_REQUEST' }, 404), userId: null };
    }
    if (match.kind === 'method-not-allowed') {
      if (request.method === 'OPTIONS') {
        return { response: new Response(null, { status: 204, headers: { Allow: match.allowed.join(', ') } }), userId: null };
      }
      return {
        response: jsonResponse(
          { result: 'error', msg: 'Method Not Allowed', code: 'BAD_REQUEST', allowed_methods: match.allowed },
          405,
        ),
        userId: null,
      };
    }
    const { endpoint, pathParams } = match;
    // The cached directory answers the realm and the caller without a database read. The
    // caller is known before the body is read: an anonymous request gets its 401 unread.
    const directory = await RealmDirectory.load(this.db);
    const { realm } = directory;
    let user: UserRow | null = null;
    const header = request.headers.get('authorization');
    if (endpoint.auth !== 'none' && (endpoint.auth !== 'optional' || header)) {
      user = authenticate(directory, header);
    }
    // A multipart body may carry a file: it may be as large as the largest upload (plus its framing).
    const { params: raw, files } = await readRequestParams(request, url, {
      maxBytes: maxFileUploadBytes(realm) + MULTIPART_OVERHEAD_BYTES,
      tooLarge: () => fileTooLarge(realm),
    });
    for (const [name, value] of pathParams) raw.set(name, value);
    const { params, ignored } = endpoint.parse(raw);
    const ctx: RequestContext = {
      engine: this,
      request,
      user: user as UserRow,
      maybeUser: user,
      realm,
      clientName: raw.get('client') ?? clientFromUserAgent(request.headers.get('user-agent')),
      files,
      clientAddress: options.clientAddress ?? null,
      inTransaction: options.inTransaction && withIgnored(options.inTransaction, ignored),
    };
    const result = await endpoint.run(ctx, params);
    const response = result instanceof Response ? result : successResponse(result, ignored);
    return { response, userId: user?.id ?? null };
  }

  close(): void {
    this.scheduler.stop();
    this.queues.close();
    this.db.close();
  }
}

/** `ZulipMobile/1.0 (...)` -> `ZulipMobile`; upstream records the client this way. */
function clientFromUserAgent(userAgent: string | null): string {
  if (!userAgent) return 'API';
  const name = userAgent.split(/[/\s]/, 1)[0];
  return name || 'API';
}

/** The hook sees the answer's fields as the client will (a hub records a forwarded write's answer whole). */
function withIgnored(hook: TransactionHook, ignored: readonly string[]): TransactionHook {
  if (ignored.length === 0) return hook;
  return (scope, answer) => hook(scope, answer instanceof Response ? answer : { ...answer, ignored_parameters_unsupported: ignored });
}
