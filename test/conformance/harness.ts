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

/** A file a case uploads: text content, so that every host can carry the request as a string. */
export interface UploadFile {
  name: string;
  type: string;
  content: string;
}

export interface HostRequest {
  method: string;
  /** Below /api/v1, unless `outsideApi`. */
  path: string;
  params: Record<string, unknown>;
  credentials: { email: string; apiKey: string } | null;
  /** Sent as a multipart body, one part per file, with `params` as fields. */
  files?: UploadFile[];
  /** `path` is the whole path (an uploaded file at /user_uploads/...), not one below /api/v1. */
  outsideApi?: boolean;
}

/** One host's way of answering a request against the realm of TEST_SCENARIO. */
export type SendToHost = (request: HostRequest) => Promise<HostAnswer>;

export interface ApiClient {
  get(path: string, params?: Record<string, unknown>): Promise<HostAnswer>;
  post(path: string, params?: Record<string, unknown>): Promise<HostAnswer>;
  patch(path: string, params?: Record<string, unknown>): Promise<HostAnswer>;
  delete(path: string, params?: Record<string, unknown>): Promise<HostAnswer>;
  request(method: string, path: string, params?: Record<string, unknown>): Promise<HostAnswer>;
  /** POST /user_uploads with these files (a single one in upstream's `filename` part). */
  upload(...files: UploadFile[]): Promise<HostAnswer>;
  /** POST these files to `path` (below /api/v1) as a multipart body. */
  uploadTo(path: string, ...files: UploadFile[]): Promise<HostAnswer>;
  /** GET a path outside /api/v1, such as an uploaded file's URL. */
  fetchFile(path: string): Promise<HostAnswer>;
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
      upload: (...files) => send({ method: 'POST', path: '/user_uploads', params: {}, credentials, files }),
      uploadTo: (path, ...files) => send({ method: 'POST', path, params: {}, credentials, files }),
      fetchFile: (path) => send({ method: 'GET', path, params: {}, credentials, outsideApi: true }),
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

const MULTIPART_BOUNDARY = 'offline-realm-conformance-boundary';

/**
 * Encodes as TestClient does: GET (and HEAD) parameters in the query, others form-encoded in the
 * body; with files, a multipart body.
 */
export function toWire({ method, path, params, credentials, files, outsideApi }: HostRequest): WireRequest {
  const form = encodeParams(params);
  const inQuery = method === 'GET' || method === 'HEAD';
  const headers: Record<string, string> = {};
  if (credentials) headers.authorization = `Basic ${btoa(`${credentials.email}:${credentials.apiKey}`)}`;
  const query = inQuery && [...form].length > 0 ? `?${form}` : '';
  const url = `${outsideApi ? '' : '/api/v1'}${path}${query}`;
  if (files) {
    headers['content-type'] = `multipart/form-data; boundary=${MULTIPART_BOUNDARY}`;
    return { url, method, headers, body: multipartBody(form, files) };
  }
  if (!inQuery) headers['content-type'] = 'application/x-www-form-urlencoded';
  return { url, method, headers, body: inQuery ? null : form.toString() };
}

function multipartBody(form: URLSearchParams, files: UploadFile[]): string {
  const parts = [...form].map(([name, value]) => `Content-Disposition: form-data; name="${name}"\r\n\r\n${value}`);
  for (const file of files) {
    const field = files.length === 1 ? 'filename' : file.name;
    parts.push(`Content-Disposition: form-data; name="${field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n${file.content}`);
  }
  return `${parts.map((part) => `--${MULTIPART_BOUNDARY}\r\n${part}\r\n`).join('')}--${MULTIPART_BOUNDARY}--\r\n`;
}

/** Reads an answer the same way in every host. */
export function fromWire(status: number, headers: Iterable<[string, string]>, text: string): HostAnswer {
  const named = Object.fromEntries(headers);
  const isJson = named['content-type']?.includes('json') ?? false;
  return { status, headers: named, body: isJson && text ? JSON.parse(text) : {}, text };
}
