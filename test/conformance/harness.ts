import { encodeParams, IDS, TEST_SCENARIO, type TestUser } from '../support/test-scenario.ts';

export { IDS, type TestUser };

/**
 * The only thing a conformance case sees of a host: requests in, status, headers and JSON out.
 * Cases never touch the database, so the same case runs against the bare engine in Node and
 * against the browser host through real fetches.
 */
export interface HostAnswer {
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** The parsed body when it is JSON, else `{}`. */
  body: Record<string, any>;
  text: string;
}

export interface HostRequest {
  method: string;
  path: string;
  params: Record<string, unknown>;
  credentials: { email: string; apiKey: string } | null;
}

/** One host's way of answering a request against the realm of TEST_SCENARIO. */
export type SendToHost = (request: HostRequest) => Promise<HostAnswer>;

export interface ApiClient {
  get(path: string, params?: Record<string, unknown>): Promise<HostAnswer>;
  post(path: string, params?: Record<string, unknown>): Promise<HostAnswer>;
  patch(path: string, params?: Record<string, unknown>): Promise<HostAnswer>;
  delete(path: string, params?: Record<string, unknown>): Promise<HostAnswer>;
  request(method: string, path: string, params?: Record<string, unknown>): Promise<HostAnswer>;
}

export interface Harness {
  as(user: TestUser): ApiClient;
  anonymous(): ApiClient;
  /** Any email and key, right or wrong. */
  withKey(email: string, apiKey: string): ApiClient;
}

/** A file of cases: `define` registers its `it`s; the runner gives it a fresh realm. */
export interface CaseSuite {
  title: string;
  define(api: Harness): void;
}

export const caseSuite = (title: string, define: (api: Harness) => void): CaseSuite => ({ title, define });

export function harnessOver(send: SendToHost): Harness {
  const client = (credentials: HostRequest['credentials']): ApiClient => {
    const request = (method: string, path: string, params: Record<string, unknown> = {}) =>
      send({ method, path, params, credentials });
    return {
      request,
      get: (path, params) => request('GET', path, params),
      post: (path, params) => request('POST', path, params),
      patch: (path, params) => request('PATCH', path, params),
      delete: (path, params) => request('DELETE', path, params),
    };
  };
  return {
    as(user) {
      const row = TEST_SCENARIO.users.find((u) => u.email.startsWith(`${user}@`));
      if (!row) throw new Error(`no test user ${user}`);
      return client({ email: row.email, apiKey: row.api_key });
    },
    anonymous: () => client(null),
    withKey: (email, apiKey) => client({ email, apiKey }),
  };
}

/** A request as it goes over HTTP: the same bytes whichever host receives it. */
export interface WireRequest {
  /** Path and query, from `/api/v1/`. */
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | null;
}

/** Encodes as TestClient does: GET (and HEAD) parameters in the query, others form-encoded in the body. */
export function toWire({ method, path, params, credentials }: HostRequest): WireRequest {
  const form = encodeParams(params);
  const inQuery = method === 'GET' || method === 'HEAD';
  const headers: Record<string, string> = {};
  if (credentials) headers.authorization = `Basic ${btoa(`${credentials.email}:${credentials.apiKey}`)}`;
  if (!inQuery) headers['content-type'] = 'application/x-www-form-urlencoded';
  const query = inQuery && [...form].length > 0 ? `?${form}` : '';
  return { url: `/api/v1${path}${query}`, method, headers, body: inQuery ? null : form.toString() };
}

/** Reads an answer the same way in every host. */
export function fromWire(status: number, headers: Iterable<[string, string]>, text: string): HostAnswer {
  const named = Object.fromEntries(headers);
  const isJson = named['content-type']?.includes('json') ?? false;
  return { status, headers: named, body: isJson && text ? JSON.parse(text) : {}, text };
}
