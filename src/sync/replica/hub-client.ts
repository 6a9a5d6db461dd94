import type { Clock } from '../../engine/clock/clock.ts';
import type { EngineEvent } from '../../engine/events/event-types.ts';
import { type EphemeralBody, type EphemeralMark, FILE_PATH_PREFIX, type HistoryAnswer, HISTORY_PATH, HUB_READ_ROUTE, type HubReadBody, type PullAnswer, type RefreshAnswer, REFRESH_PATH, type PushAnswer, type PushedMutation, RESYNC_NEEDED, SNAPSHOT_PATH, type SnapshotAnswer, SYNC_PREFIX, SYNC_VERSION, UPLOAD_PATH } from '../protocol.ts';

/** How a replica reaches its hub: `fetch`, or anything shaped like it (tests cut the link here). */
export type HubFetch = (request: Request) => Promise<Response>;

/** The hub could not be reached, or its answer was lost: nothing is known of what it did. */
export class HubUnreachable extends Error {}

/** The hub's identity or epoch changed, or the checkpoint is unusable: start again from a snapshot. */
export class ResyncNeeded extends Error {}

/** The hub answered an error other than a resync (bad credentials, a malformed call). */
export class HubError extends Error {
  readonly status: number;
  readonly code: string;

  constructor(status: number, code: string, msg: string) {
    super(msg);
    this.status = status;
    this.code = code;
  }
}

/**
 * How long a call may go unanswered before the hub counts as unreachable. A network that drops
 * without a word (the trainer's laptop asleep, a Wi-Fi gone) leaves a request hanging for
 * minutes, which would hold every round behind it. A snapshot carries the user's whole realm.
 */
export const CALL_DEADLINE_MS = 20_000;
export const SNAPSHOT_DEADLINE_MS = 120_000;
/** A wait's deadline is the time it asked the hub to wait, plus this. */
export const WAIT_GRACE_MS = 15_000;
/** An upload or a file carries up to the realm's largest upload (25 MiB by default). */
export const FILE_DEADLINE_MS = 120_000;

/** The hub's answer as it came: its status, headers and bytes (an upload's or a file's, passed on to the replica's client). */
export interface HubAnswer {
  status: number;
  headers: Headers;
  bytes: Uint8Array<ArrayBuffer>;
}

/** The replica's calls to the hub's `/sync/v1/`, with its user's credentials. */
export class HubClient {
  readonly #fetch: HubFetch;
  readonly #clock: Clock;
  readonly #base: string;
  readonly #authorization: string;
  /** Told the typing notices and presence changes a wait's answer carries (`ephemeral`). */
  readonly #onEphemeral: ((events: EngineEvent[]) => void) | undefined;
  /** How far the last answer received went, for the next wait to acknowledge (only to a hub that says, version 4). */
  #ephemeralReceived: EphemeralMark | undefined;

  constructor(options: { fetch: HubFetch; clock: Clock; hubUrl: string; email: string; apiKey: string; onEphemeral?: (events: EngineEvent[]) => void }) {
    this.#fetch = options.fetch;
    this.#clock = options.clock;
    this.#onEphemeral = options.onEphemeral;
    this.#base = options.hubUrl.replace(/\/$/, '') + SYNC_PREFIX;
    this.#authorization = `Basic ${btoa(`${options.email}:${options.apiKey}`)}`;
  }

  snapshot(): Promise<SnapshotAnswer> {
    return this.#call('GET', SNAPSHOT_PATH, undefined, { deadlineMs: SNAPSHOT_DEADLINE_MS });
  }

  push(body: { hub_id: string; epoch: string; client_id: string; mutations: PushedMutation[] }): Promise<PushAnswer> {
    return this.#call('POST', '/push', body);
  }

  pull(body: { hub_id: string; epoch: string; cursor: number }): Promise<PullAnswer> {
    return this.#call('POST', '/pull', body);
  }

  /** Messages read again, as a pull bundles them (docs/SYNC.md, "Client mutation ids"). */
  refresh(body: { hub_id: string; epoch: string; ids: number[] }): Promise<RefreshAnswer> {
    return this.#call('POST', REFRESH_PATH, body);
  }

  /** A page of a channel's history the user may read but did not receive (docs/SYNC.md, "Channel history"). */
  history(body: { hub_id: string; epoch: string; channel_id: number; before?: number }): Promise<HistoryAnswer> {
    return this.#call('POST', HISTORY_PATH, body);
  }

  /** Resolves once the hub has changes after `cursor` (with the page a pull would answer), or null when the wait ran out. */
  async wait(body: { hub_id: string; epoch: string; cursor: number; timeout_seconds: number; client_id?: string }, signal: AbortSignal): Promise<PullAnswer | null> {
    const deadlineMs = body.timeout_seconds * 1000 + WAIT_GRACE_MS;
    const asked = this.#ephemeralReceived ? { ...body, ephemeral_ack: this.#ephemeralReceived } : body;
    const answer = await this.#call<{ changed: boolean; page?: PullAnswer; ephemeral?: EngineEvent[]; ephemeral_until?: EphemeralMark }>('POST', '/wait', asked, { signal, deadlineMs });
    // Received: the hub may forget these. A wait given up on never gets here, so the hub sends its events again.
    if (answer.ephemeral_until) this.#ephemeralReceived = answer.ephemeral_until;
    if (answer.ephemeral?.length) this.#onEphemeral?.(answer.ephemeral);
    return answer.page ?? null;
  }

  /** Relays a typing or presence request of the replica's user (fire and forget: the answer is the hub's API answer, unused). */
  ephemeral(body: EphemeralBody): Promise<unknown> {
    return this.#call('POST', '/ephemeral', body);
  }

  /** A read only the hub can answer, as the user's own `GET`: the API's answer whatever it is, unless the hub could not be reached or failed. */
  read(body: HubReadBody): Promise<HubAnswer> {
    return this.#apiAnswer('POST', HUB_READ_ROUTE, { body: new TextEncoder().encode(JSON.stringify(body)), contentType: 'application/json' });
  }

  /** The user's upload (the client's multipart body) to the hub's API; its answer whatever it is, unless the hub could not be reached or failed. */
  upload(body: Uint8Array<ArrayBuffer>, contentType: string): Promise<HubAnswer> {
    return this.#apiAnswer('POST', UPLOAD_PATH, { body, contentType }, FILE_DEADLINE_MS);
  }

  /** The hub's answer to `/user_uploads/<rest>` for the replica's user: the file, or the API's refusal. */
  file(rest: string): Promise<HubAnswer> {
    return this.#apiAnswer('GET', FILE_PATH_PREFIX + rest, {}, FILE_DEADLINE_MS);
  }

  /** A call whose answer is the hub's API's, whatever it is (a file's calls with the file's deadline); a hub failure counts as no answer. */
  async #apiAnswer(method: string, path: string, sent: { body?: Uint8Array<ArrayBuffer>; contentType?: string }, deadlineMs = CALL_DEADLINE_MS): Promise<HubAnswer> {
    const answer = await this.#exchange(method, path, { ...sent, deadlineMs });
    if (answer.status >= 500) throw new HubUnreachable(`hub answered ${answer.status}`);
    return answer;
  }

  async #call<T>(method: string, path: string, body?: unknown, options: { signal?: AbortSignal; deadlineMs?: number } = {}): Promise<T> {
    const sent = body === undefined ? {} : { body: new TextEncoder().encode(JSON.stringify(body)), contentType: 'application/json' };
    const answer = await this.#exchange(method, path, { ...options, ...sent });
    let json: Record<string, unknown>;
    try {
      json = JSON.parse(new TextDecoder().decode(answer.bytes)) as Record<string, unknown>;
    } catch (error) {
      throw new HubUnreachable(error instanceof Error ? error.message : String(error));
    }
    if (answer.status >= 200 && answer.status < 300) return json as T;
    if (json.code === RESYNC_NEEDED) throw new ResyncNeeded(String(json.msg));
    if (answer.status >= 500) throw new HubUnreachable(`hub answered ${answer.status}`);
    throw new HubError(answer.status, String(json.code), String(json.msg));
  }

  /** `exchange` with the user's credentials, at the protocol version this replica speaks. */
  #exchange(
    method: string,
    path: string,
    options: { body?: Uint8Array<ArrayBuffer>; contentType?: string; signal?: AbortSignal; deadlineMs?: number },
  ): Promise<HubAnswer> {
    const headers: Record<string, string> = { Authorization: this.#authorization };
    if (options.contentType !== undefined) headers['Content-Type'] = options.contentType;
    return exchange(this.#fetch, this.#clock, `${this.#base}${path}?version=${SYNC_VERSION}`, { method, headers, body: options.body }, options);
  }
}

/**
 * A browser's first login, before it holds any credentials: the hub's `fetch_api_key` with the
 * login form's body, its answer whatever it is, within the call deadline (a dropped network
 * would otherwise hold this login, and every login queued behind it, for minutes).
 */
export function logInOnHub(options: { fetch: HubFetch; clock: Clock; hubUrl: string }, body: Uint8Array<ArrayBuffer>, contentType: string): Promise<HubAnswer> {
  const url = `${options.hubUrl.replace(/\/$/, '')}${SYNC_PREFIX}/fetch_api_key`;
  return exchange(options.fetch, options.clock, url, { method: 'POST', headers: { 'Content-Type': contentType }, body }, {});
}

/** One call, its answer read whole before the deadline; a network failure or the deadline is `HubUnreachable`. */
async function exchange(
  fetch: HubFetch,
  clock: Clock,
  url: string,
  init: { method: string; headers: Record<string, string>; body: Uint8Array<ArrayBuffer> | undefined },
  options: { signal?: AbortSignal; deadlineMs?: number },
): Promise<HubAnswer> {
  const deadlineMs = options.deadlineMs ?? CALL_DEADLINE_MS;
  const late = new AbortController();
  // On the engine's clock, as the replica's other timers (tests drive it).
  const timer = clock.setTimeout(() => late.abort(), deadlineMs);
  const signal = options.signal ? AbortSignal.any([options.signal, late.signal]) : late.signal;
  try {
    const response = await fetch(new Request(url, { ...init, signal }));
    return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) };
  } catch (error) {
    if (late.signal.aborted) throw new HubUnreachable(`the hub did not answer within ${deadlineMs / 1000} s`);
    throw new HubUnreachable(error instanceof Error ? error.message : String(error));
  } finally {
    clock.clearTimeout(timer);
  }
}
