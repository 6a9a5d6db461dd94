import { answerIsKept, type RelayedRequest, type RelayedResponse } from '../protocol/relay-protocol.ts';

/**
 * Applies a mutation once even when Chromium re-sends it. When the browser stops the Service
 * Worker while a fetch is in flight, it dispatches the same fetch again to a fresh Service
 * Worker instance: the engine then sees the request twice, and a POST would run twice.
 *
 * A FetchEvent carries no id that both Service Worker instances could share, so the engine side
 * recognises the re-send: same client, method, URL, Authorization and body, relayed by a
 * *different* Service Worker instance, while the first copy's answer never reached its Service
 * Worker (each Service Worker acknowledges every mutation's answer it receives), and within
 * REPLAY_WINDOW_MS of the first copy's end. Such a re-sent mutation gets the first copy's answer
 * instead of running again; a re-sent GET aborts the orphaned first copy (a long-poll nobody
 * will read) and runs anew. Identical requests whose earlier copy was answered are a client's
 * deliberate repeats and run every time.
 */
export const REPLAY_WINDOW_MS = 10_000;

interface Attempt {
  relayInstance: string;
  /** The request's body, compared byte for byte with a possible re-send's. */
  body: Uint8Array | null;
  abort: AbortController;
  answer: Promise<RelayedResponse>;
  finishedAt: number | null;
  delivered: boolean;
}

export type RunRequest = (signal: AbortSignal) => Promise<RelayedResponse>;

export class ReplayGuard {
  /** By request head (see `headOf`): the latest copy of each request not known to be answered. */
  readonly #attempts = new Map<string, Attempt[]>();
  /** By `relayInstance#id`, until the Service Worker acknowledges the answer. */
  readonly #unacknowledged = new Map<string, Attempt>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /**
   * Runs `run` for `request`, unless it is a re-send of a mutation already applied. `signal`
   * aborts this copy (its fetch was abandoned); the signal `run` gets also fires when a re-send
   * supersedes it. Decided in the turn the request arrives: nothing waits on a digest.
   */
  async handle(request: RelayedRequest, signal: AbortSignal, run: RunRequest): Promise<RelayedResponse> {
    this.#forgetOld();
    const head = headOf(request);
    const body = request.body && request.body.byteLength > 0 ? new Uint8Array(request.body) : null;
    const copies = this.#attempts.get(head) ?? [];
    const index = copies.findLastIndex((copy) => sameBytes(copy.body, body));
    const earlier = index === -1 ? undefined : copies[index];
    const readOnly = !answerIsKept(request.method);
    const resent = earlier !== undefined && !earlier.delivered && earlier.relayInstance !== request.relayInstance;
    if (resent && !readOnly) return { ...(await earlier.answer), id: request.id };
    if (resent && earlier.finishedAt === null) earlier.abort.abort();

    const abort = new AbortController();
    const attempt: Attempt = {
      relayInstance: request.relayInstance,
      body,
      abort,
      answer: run(AbortSignal.any([signal, abort.signal])),
      finishedAt: null,
      delivered: false,
    };
    if (index === -1) copies.push(attempt);
    else copies[index] = attempt;
    this.#attempts.set(head, copies);
    this.#unacknowledged.set(`${request.relayInstance}#${request.id}`, attempt);
    try {
      return await attempt.answer;
    } finally {
      attempt.finishedAt = this.#now();
      // A finished read is nothing a re-send could need (it only ever aborts an unfinished one),
      // and the Service Worker acknowledges no read: forget it now.
      if (readOnly) attempt.delivered = true;
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
    const old = (attempt: Attempt) => attempt.delivered || (attempt.finishedAt !== null && attempt.finishedAt < cutoff);
    for (const [key, attempt] of this.#unacknowledged) if (old(attempt)) this.#unacknowledged.delete(key);
    for (const [head, copies] of this.#attempts) {
      const kept = copies.filter((attempt) => !old(attempt));
      if (kept.length === 0) this.#attempts.delete(head);
      else if (kept.length < copies.length) this.#attempts.set(head, kept);
    }
  }
}

/**
 * What makes two requests "the same request from the same client", besides their bodies: the
 * head as text. Bodies are compared byte for byte only between copies with the same head (a
 * SHA-256 of every body cost each mutation a hop to another thread before it could run).
 */
function headOf(request: RelayedRequest): string {
  const authorization = request.headers.find(([name]) => name.toLowerCase() === 'authorization')?.[1] ?? '';
  return JSON.stringify([request.clientId, request.method, request.url, authorization]);
}

function sameBytes(a: Uint8Array | null, b: Uint8Array | null): boolean {
  if (a === null || b === null) return a === b;
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}
