// Requests as an HTTP client builds them (form-encoded, Basic auth), timed around `handle()`.
import type { Engine } from '../src/engine/engine.ts';
import { unreadJsonAnswer } from '../src/engine/http/json-answer-response.ts';
import type { BenchUser } from './realm-fixture.ts';

export interface Timed {
  /** `performance.now()` when `handle()` was called. */
  startedAt: number;
  ms: number;
  status: number;
  body: string;
}

/** Strings go raw, everything else as JSON, as real clients encode parameters. */
function encode(params: Record<string, unknown>): string {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) form.set(name, typeof value === 'string' ? value : JSON.stringify(value));
  return form.toString();
}

export function apiRequest(user: BenchUser, method: string, path: string, params: Record<string, unknown> = {}): Request {
  const form = encode(params);
  const inQuery = method === 'GET';
  const url = `http://bench.test/api/v1${path}${inQuery && form ? `?${form}` : ''}`;
  const headers = new Headers({ Authorization: `Basic ${btoa(`${user.email}:${user.apiKey}`)}` });
  if (!inQuery) headers.set('Content-Type', 'application/x-www-form-urlencoded');
  return new Request(url, { method, headers, body: inQuery ? undefined : form });
}

/**
 * Time from calling `handle()` to the answer's body in hand, taken as both hosts take it: a JSON
 * answer's text as it is (`writesJsonItself`: the Node host writes it, the browser relay copies
 * it), any other answer's body read.
 */
export async function timedCall(engine: Engine, request: Request): Promise<Timed> {
  const start = performance.now();
  const response = await engine.handle(request, { writesJsonItself: true });
  const body = unreadJsonAnswer(response)?.text ?? (await response.text());
  return { startedAt: start, ms: performance.now() - start, status: response.status, body };
}

/** The same, with the answer as the platform's own Response and its body read: what `Engine.handle`'s callers and msw get. */
export async function timedPlatformCall(engine: Engine, request: Request): Promise<Timed> {
  const start = performance.now();
  const response = await engine.handle(request);
  const body = await response.text();
  return { startedAt: start, ms: performance.now() - start, status: response.status, body };
}

/** Fails the bench loudly: a figure measured on error responses would mean nothing. */
export function expectOk(result: { status: number; body: string }, what: string): void {
  if (result.status !== 200) throw new Error(`${what} answered ${result.status}: ${result.body}`);
}
