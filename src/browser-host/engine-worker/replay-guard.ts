import type { RelayedRequest, RelayedResponse } from '../protocol/relay-protocol.ts';
import { sha256 } from '../../engine/crypto/portable-crypto.ts';

/**
 * Applies a mutation once even when Chromium re-sends it. When the browser stops the Service
 * Worker while a fetch is in flight, it dispatches the same fetch again to a fresh Service
 * Worker instance: the engine then sees the request twice, and a POST would run twice.
 *
 * A FetchEvent carries no id that both Service Worker instances could share, so the engine side
 * recognises the re-send: same client, method, URL, Authorization and body, relayed by a
 * *different* Service Worker instance, while the first copy's answer never reached its Service
 * Worker (each Service Worker acknowledges every answer it receives), and within
 * REPLAY_WINDOW_MS of the first copy's end. Such a re-sent mutation gets the first copy's answer
 * instead of running again; a re-sent GET aborts the orphaned first copy (a long-poll nobody
 * will read) and runs anew. Identical requests whose earlier copy was answered are a client's
 * deliberate repeats and run every time.
 */
export const REPLAY_WINDOW_MS = 10_000;

interface Attempt {
  relayInstance: string;
  abort: AbortController;
  answer: Promise<RelayedResponse>;
  finishedAt: number | null;
  delivered: boolean;
}

export type RunRequest = (signal: AbortSignal) => Promise<RelayedResponse>;

export class ReplayGuard {
  /** By request fingerprint: the latest copy of each request not known to be answered. */
  readonly #attempts = new Map<string, Attempt>();
  /** By `relayInstance#id`, until the Service Worker acknowledges the answer. */
  readonly #unacknowledged = new Map<string, Attempt>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /**
   * Runs `run` for `request`, unless it is a re-send of a mutation already applied. `signal`
   * aborts this copy (its fetch was abandoned); the signal `run` gets also fires when a re-send
   * supersedes it.
   */
  async handle(request: RelayedRequest, signal: AbortSignal, run: RunRequest): Promise<RelayedResponse> {
    this.#forgetOld();
    const key = await fingerprint(request);
    const earlier = this.#attempts.get(key);
    const readOnly = !answerIsKept(request.method);
    const resent = earlier !== undefined && !earlier.delivered && earlier.relayInstance !== request.relayInstance;
    if (resent && !readOnly) return { ...(await earlier.answer), id: request.id };
    if (resent && earlier.finishedAt === null) earlier.abort.abort();

    const abort = new AbortController();
    const attempt: Attempt = {
      relayInstance: request.relayInstance,
      abort,
      answer: run(AbortSignal.any([signal, abort.signal])),
      finishedAt: null,
      delivered: false,
    };
    this.#attempts.set(key, attempt);
    this.#unacknowledged.set(`${request.relayInstance}#${request.id}`, attempt);
    try {
      return await attempt.answer;
    } finally {
      attempt.finishedAt = this.#now();
    }
  }

  /** The Service Worker received the answer to its request `id`: a repeat is no re-send. */
  acknowledge(relayInstance: string, id: number): void {
    const key = `${relayInstance}#${id}`;
    const attempt = this.#unacknowledged.get(key);
    this.#unacknowledged.delete(key);
    if (attempt) attempt.delivered = true;
  }

  #forgetOld(): void {
    const cutoff = this.#now() - REPLAY_WINDOW_MS;
    for (const map of [this.#attempts, this.#unacknowledged]) {
      for (const [key, attempt] of map) {
        if (attempt.delivered || (attempt.finishedAt !== null && attempt.finishedAt < cutoff)) map.delete(key);
      }
    }
  }
}

/**
 * Whether the guard keeps a request's answer for a re-send (a mutation's): that answer's body
 * must not be transferred away when it is posted.
 */
export function answerIsKept(method: string): boolean {
  return method !== 'GET' && method !== 'HEAD';
}

/**
 * Everything that makes two requests "the same request from the same client": the head as
 * text, and the SHA-256 of a body (a body may be megabytes). A bodiless request, every GET among
 * them, is keyed at once, without the digest's hop to another thread.
 */
function fingerprint(request: RelayedRequest): string | Promise<string> {
  const authorization = request.headers.find(([name]) => name.toLowerCase() === 'authorization')?.[1] ?? '';
  // A JSON array: it ends in `]`, so no head alone equals a head followed by a digest.
  const head = JSON.stringify([request.clientId, request.method, request.url, authorization]);
  if (!request.body || request.body.byteLength === 0) return head;
  return sha256(new Uint8Array(request.body)).then((digest) => `${head}${Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('')}`);
}
