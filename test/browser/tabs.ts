import { commands } from 'vitest/browser';

/**
 * Runs `fn(arg)` inside a tab of the built app. `fn` travels as source text, so it must be
 * self-contained: no imports, no variables from outside, only its argument.
 */
export async function inTab<A, R>(tab: string, fn: (arg: A) => Promise<R>, arg: A): Promise<R> {
  return (await commands.runInTab(tab, fn.toString(), arg)) as R;
}

export interface ApiCall {
  method: string;
  path: string;
  /** `email:api_key` for HTTP Basic auth; none: an anonymous call. */
  auth?: string;
  /** Sent urlencoded, non-string values JSON-encoded as clients do. */
  params?: Record<string, unknown>;
}

export interface ApiAnswer {
  status: number;
  contentType: string | null;
  body: Record<string, unknown>;
  ms: number;
}

/** One `fetch('/api/v1/...')` from the tab, as any page of the site would make it. */
export function callApi(tab: string, call: ApiCall): Promise<ApiAnswer> {
  return inTab(
    tab,
    async ({ method, path, auth, params }: ApiCall) => {
      const form = new URLSearchParams();
      for (const [name, value] of Object.entries(params ?? {})) {
        form.set(name, typeof value === 'string' ? value : JSON.stringify(value));
      }
      const headers: Record<string, string> = auth ? { Authorization: `Basic ${btoa(auth)}` } : {};
      const hasBody = method !== 'GET' && method !== 'HEAD';
      const url = `/api/v1${path}${!hasBody && params ? `?${form}` : ''}`;
      const started = performance.now();
      const response = await fetch(url, { method, headers, body: hasBody ? form : undefined });
      const body = (await response.json()) as Record<string, unknown>;
      return { status: response.status, contentType: response.headers.get('content-type'), body, ms: performance.now() - started };
    },
    call,
  );
}
