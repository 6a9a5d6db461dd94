import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { standInFor } from '../engine/platform/stand-in.ts';

const INCOMING = Symbol('incoming');
const BUILT = Symbol('built');
const RAW = Symbol('raw');

interface Incoming {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly url: URL;
  headers?: Headers;
  disconnected?: AbortController;
}

/** A Request for an IncomingMessage; the platform Request behind it is built on first use. */
class IncomingRequest {
  readonly [INCOMING]: Incoming;
  [BUILT]: Request | undefined = undefined;

  constructor(incoming: Incoming) {
    this[INCOMING] = incoming;
  }
}

function built(request: IncomingRequest): Request {
  if (!request[BUILT]) {
    const incoming = request[INCOMING];
    const init = {
      method: incoming.req.method,
      headers: headers(incoming),
      signal: signal(incoming),
      body: hasBody(incoming.req) ? (Readable.toWeb(incoming.req) as ReadableStream<Uint8Array>) : undefined,
      // Required by fetch for a streamed request body.
      duplex: 'half',
    };
    request[BUILT] = new Request(incoming.url, init as RequestInit);
  }
  return request[BUILT];
}

function hasBody(req: IncomingMessage): boolean {
  return req.method !== 'GET' && req.method !== 'HEAD';
}

function headers(incoming: Incoming): Headers {
  incoming.headers ??= new IncomingHeaders(incoming.req.rawHeaders) as unknown as Headers;
  return incoming.headers;
}

/** Headers read from Node's raw list; `get` and `has`, all a request's reader asks, build nothing. */
class IncomingHeaders {
  readonly [RAW]: string[];
  [BUILT]: Headers | undefined = undefined;

  constructor(raw: string[]) {
    this[RAW] = raw;
  }
}

standInFor(
  IncomingHeaders,
  Headers,
  (headers) => {
    // Straight from the raw list: a repeated header stays repeated, as `append` keeps it.
    if (!headers[BUILT]) {
      const built = new Headers();
      const raw = headers[RAW];
      for (let i = 0; i < raw.length; i += 2) built.append(raw[i]!, raw[i + 1]!);
      headers[BUILT] = built;
    }
    return headers[BUILT];
  },
  {
    get: {
      value(name: string): string | null {
        return headerValue(this, name);
      },
    },
    has: {
      value(name: string): boolean {
        return headerValue(this, name) !== null;
      },
    },
  },
);

function headerValue(headers: IncomingHeaders, name: string): string | null {
  return headers[BUILT] ? headers[BUILT].get(name) : rawListValue(headers[RAW], name);
}

/**
 * A header of Node's request as `Headers.get` gives it, read from the raw list: Node builds its
 * parsed `req.headers` object on first use, which a small answer need not pay for.
 */
export function rawHeader(req: IncomingMessage, name: string): string | null {
  return rawListValue(req.rawHeaders, name);
}

/** The values of every line of that name, joined by ", " (cookies by "; "), as `Headers.get` joins them. */
function rawListValue(raw: string[], name: string): string | null {
  const wanted = name.toLowerCase();
  const separator = wanted === 'cookie' ? '; ' : ', ';
  let value: string | null = null;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() === wanted) value = value === null ? raw[i + 1]! : `${value}${separator}${raw[i + 1]}`;
  }
  return value;
}

/** Aborts when the client goes away before its answer is written, releasing a pending long-poll. */
function signal(incoming: Incoming): AbortSignal {
  if (!incoming.disconnected) {
    const disconnected = new AbortController();
    const { res } = incoming;
    // Read after the close: aborted only if the answer was not all written, as the listener decides.
    if (res.closed) {
      if (!res.writableFinished) disconnected.abort();
    } else res.once('close', () => res.writableFinished || disconnected.abort());
    incoming.disconnected = disconnected;
  }
  return incoming.disconnected.signal;
}

standInFor(IncomingRequest, Request, built, {
  method: {
    get() {
      return this[INCOMING].req.method;
    },
  },
  url: {
    get() {
      return this[INCOMING].url.href;
    },
  },
  headers: {
    get() {
      return this[BUILT]?.headers ?? headers(this[INCOMING]);
    },
  },
  signal: {
    get() {
      return this[BUILT]?.signal ?? signal(this[INCOMING]);
    },
  },
  body: {
    get() {
      return hasBody(this[INCOMING].req) ? built(this).body : null;
    },
  },
  bodyUsed: {
    get() {
      return this[BUILT]?.bodyUsed ?? false;
    },
  },
});

/**
 * The engine's Request for a Node request: a `Request` by `instanceof` and by every member, whose
 * method, URL, headers and abort signal come without building the platform Request (each only
 * when read); its body, or any other member, builds it.
 */
export function incomingRequest(req: IncomingMessage, res: ServerResponse, url: URL): Request {
  return new IncomingRequest({ req, res, url }) as unknown as Request;
}

/** Whether anything has taken the request's body stream (false: the body is still the socket's to drain). */
export function bodyStreamTaken(request: Request): boolean {
  return !(request instanceof IncomingRequest) || request[BUILT] !== undefined;
}
