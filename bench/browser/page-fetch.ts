// The bench page's API calls: same-origin fetches, encoded as bench/api-client.ts encodes them,
// timed from the `fetch()` call to the body read (as `timedCall` times `handle()`). `fetcher` is
// the page's own `fetch` unless a frame's is given (bench/browser/relay-peers.ts).
import type { BenchUser } from '../realm-fixture.ts';

export interface TimedFetch {
  ms: number;
  status: number;
  body: string;
}

export function apiFetch(user: BenchUser, method: string, path: string, params: Record<string, unknown> = {}, fetcher: typeof fetch = fetch): Promise<Response> {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) form.set(name, typeof value === 'string' ? value : JSON.stringify(value));
  const inQuery = method === 'GET';
  const query = inQuery && form.size > 0 ? `?${form}` : '';
  const headers = new Headers({ Authorization: `Basic ${btoa(`${user.email}:${user.apiKey}`)}` });
  if (!inQuery) headers.set('Content-Type', 'application/x-www-form-urlencoded');
  return fetcher(`/api/v1${path}${query}`, { method, headers, body: inQuery ? undefined : form.toString() });
}

export async function timedFetch(
  user: BenchUser,
  method: string,
  path: string,
  params: Record<string, unknown> = {},
  fetcher: typeof fetch = fetch,
): Promise<TimedFetch> {
  const start = performance.now();
  const response = await apiFetch(user, method, path, params, fetcher);
  const body = await response.text();
  return { ms: performance.now() - start, status: response.status, body };
}
