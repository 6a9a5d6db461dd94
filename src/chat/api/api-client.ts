/** A refusal or failure of one API call, with the server's own words when it gave them. */
export class ApiFailure extends Error {
  readonly status: number;
  readonly code: string;
  readonly body: Record<string, unknown>;

  constructor(status: number, code: string, msg: string, body: Record<string, unknown> = {}) {
    super(msg);
    this.status = status;
    this.code = code;
    this.body = body;
  }
}

/** The name this app goes by on the server (`client` on a message), as ZulipMobile or website do. */
export const CLIENT_NAME = 'OfflineRealm';

export type ApiParams = Record<string, string | number | boolean | object | null | undefined>;

/** What each call reports to whoever watches the traffic (the app's API log panel). */
export interface ApiCallRecord {
  method: string;
  path: string;
  status: number;
  ms: number;
}

export interface Credentials {
  /** '' for this origin, else an absolute base such as http://127.0.0.1:9991 */
  server: string;
  email: string;
  apiKey: string;
}

/**
 * The app's only way to the server: `fetch` to `{server}/api/v1/...` with HTTP Basic auth, as
 * any Zulip client makes it. Parameters are form-encoded, non-strings JSON-encoded (the API's
 * wire convention). A non-success answer becomes an {@link ApiFailure} carrying `msg` and `code`.
 */
export class ApiClient {
  readonly server: string;
  readonly #authorization: string | null;
  readonly #onCall: ((record: ApiCallRecord) => void) | undefined;

  constructor(server: string, auth: { email: string; apiKey: string } | null, onCall?: (record: ApiCallRecord) => void) {
    this.server = server.replace(/\/+$/, '');
    this.#authorization = auth ? `Basic ${base64(`${auth.email}:${auth.apiKey}`)}` : null;
    this.#onCall = onCall;
  }

  get<T = Record<string, unknown>>(path: string, params?: ApiParams, signal?: AbortSignal): Promise<T> {
    return this.call<T>('GET', path, params, signal);
  }

  post<T = Record<string, unknown>>(path: string, params?: ApiParams): Promise<T> {
    return this.call<T>('POST', path, params);
  }

  patch<T = Record<string, unknown>>(path: string, params?: ApiParams): Promise<T> {
    return this.call<T>('PATCH', path, params);
  }

  delete<T = Record<string, unknown>>(path: string, params?: ApiParams): Promise<T> {
    return this.call<T>('DELETE', path, params);
  }

  /** An absolute URL for a server-relative one (avatars, uploads, links in messages). */
  resolve(url: string): string {
    return url.startsWith('/') ? `${this.server}${url}` : url;
  }

  async call<T>(method: string, path: string, params?: ApiParams, signal?: AbortSignal): Promise<T> {
    const hasBody = method !== 'GET';
    // Upstream's global `client` parameter names this app where a User-Agent cannot (browsers
    // send their own): servers record it, and treat a person's own message as read.
    const form = encodeParams(hasBody ? { client: CLIENT_NAME, ...params } : params);
    const query = !hasBody && form.size > 0 ? `?${form}` : '';
    return this.#fetch<T>(method, `${path}${query}`, hasBody ? form : undefined, signal);
  }

  /** Sends one file as a multipart body (`POST /user_uploads` takes it in the field `filename`). */
  upload<T = Record<string, unknown>>(path: string, field: string, file: File, signal?: AbortSignal): Promise<T> {
    const body = new FormData();
    body.set('client', CLIENT_NAME);
    body.set(field, file, file.name);
    return this.#fetch<T>('POST', path, body, signal);
  }

  async #fetch<T>(method: string, path: string, payload: URLSearchParams | FormData | undefined, signal?: AbortSignal): Promise<T> {
    const headers: Record<string, string> = {};
    if (this.#authorization) headers.Authorization = this.#authorization;
    const started = performance.now();
    const logged = path.split('?', 1)[0];
    let response: Response;
    try {
      response = await fetch(`${this.server}/api/v1${path}`, { method, headers, body: payload, signal });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new ApiFailure(0, 'NETWORK_ERROR', `The server could not be reached (${this.server || location.origin}).`);
    }
    const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
    this.#onCall?.({ method, path: logged, status: response.status, ms: Math.round(performance.now() - started) });
    if (!body) throw new ApiFailure(response.status, 'BAD_RESPONSE', `The server answered ${response.status} without JSON.`);
    if (body.result !== 'success') {
      throw new ApiFailure(response.status, String(body.code ?? 'BAD_REQUEST'), String(body.msg ?? 'Request failed'), body);
    }
    return body as T;
  }
}

function encodeParams(params: ApiParams | undefined): URLSearchParams {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(params ?? {})) {
    if (value === undefined) continue;
    form.set(name, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return form;
}

/** btoa takes Latin-1 only; emails and keys may be any UTF-8. */
function base64(text: string): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(text)));
}
