import '../engine/platform/supported-node.ts';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { API_PREFIX, type Engine } from '../engine/engine.ts';
import { unreadJsonAnswer } from '../engine/http/json-answer-response.ts';
import { MAX_REQUEST_BODY_BYTES } from '../engine/http/request-params.ts';
import { SyncHub } from '../sync/hub/sync-hub.ts';
import { bodyStreamTaken, incomingRequest, rawHeader } from './incoming-request.ts';
import { serveAppFile } from './static-app.ts';

export interface NodeServerOptions {
  /** Address to bind; loopback unless told otherwise. */
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** The sync hub's peer protocol, answered at `/sync/v1/` (docs/SYNC.md); absent: not served. */
  syncHub?: SyncHub;
  /** A directory holding the built app (`serve --app`), served at every path outside the API's; absent: not served. */
  appDir?: string;
}

export interface NodeServer {
  readonly server: Server;
  readonly host: string;
  /** The port actually bound (differs from the option when it was 0). */
  readonly port: number;
  /** `http://host:port`, the base URL clients use. */
  readonly url: string;
  /** Stops accepting connections and resolves once every open connection has ended. */
  close(): Promise<void>;
}

/** Sent on every response so that a page on another origin may call the API. */
const CORS_HEADERS = { 'Access-Control-Allow-Origin': '*' };
/** `CORS_HEADERS` as `writeHead`'s flat list, and their names as the engine's answers spell them. */
const CORS_HEADER_LIST = Object.entries(CORS_HEADERS).flat();
const CORS_HEADER_NAMES = new Set(Object.keys(CORS_HEADERS).map((name) => name.toLowerCase()));

const PREFLIGHT_HEADERS = {
  ...CORS_HEADERS,
  'Access-Control-Allow-Methods': 'GET, POST, PATCH, PUT, DELETE, OPTIONS',
  'Access-Control-Allow-Headers': 'Authorization, Content-Type',
  'Access-Control-Max-Age': '86400',
};

/** Open connections get this long to finish their response when the server closes. */
const CLOSE_GRACE_MS = 2_000;

/**
 * Serves the engine over HTTP/1.1: each IncomingMessage becomes a WHATWG Request for
 * `engine.handle`, and the Response is written back as it is. No API logic lives here.
 */
export async function createNodeServer(engine: Engine, options: NodeServerOptions = {}): Promise<NodeServer> {
  const host = options.host ?? '127.0.0.1';
  let closing = false;
  const server = createServer((req, res) => {
    serve(engine, options, req, res, () => closing).catch((error: unknown) => {
      console.error('offline-realm: could not answer a request', error);
      res.destroy();
    });
  });
  server.on('clientError', answerUnparsable);
  // An event long-poll stays open for up to a minute between heartbeats; only a slow request
  // upload or a slow header block is cut, never a slow answer.
  server.timeout = 0;
  server.requestTimeout = 300_000;
  server.headersTimeout = 60_000;
  server.keepAliveTimeout = 65_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    host,
    port,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close: () => {
      closing = true;
      return closeServer(server);
    },
  };
}

async function serve(
  engine: Engine,
  { syncHub, appDir }: NodeServerOptions,
  req: IncomingMessage,
  res: ServerResponse,
  closing: () => boolean,
): Promise<void> {
  const url = requestUrl(req);
  if (!url) {
    writeJsonError(res, 400, 'Bad Request');
    return;
  }
  if (isPreflight(req, url)) {
    res.writeHead(204, PREFLIGHT_HEADERS).end();
    return;
  }
  if (appDir !== undefined && isAppPath(url.pathname)) {
    await serveAppFile(appDir, req, res, url.pathname);
    return;
  }
  const request = incomingRequest(req, res, url);
  const options = { clientAddress: req.socket.remoteAddress, writesJsonItself: true };
  const response =
    syncHub && SyncHub.isSyncPath(url.pathname)
      ? await syncHub.handle(request, options)
      : await engine.handle(request, options);
  // A body left unread would stall the next request on this keep-alive connection (Node
  // drains unread bodies only when nothing listens to them, as when the engine never took the
  // stream), so it is drained; but one still arriving that the engine refused part-way, or that
  // is longer than it would read (or of unknown length), ends the connection instead of being read.
  const declared = () => Number(rawHeader(req, 'content-length') ?? Infinity);
  const abandoned = !req.complete && (request.bodyUsed || !(declared() <= MAX_REQUEST_BODY_BYTES));
  // Once closing, each answer ends its connection, so close() need not wait out keep-alive.
  if (closing() || abandoned) res.shouldKeepAlive = false;
  await writeResponse(res, response);
  if (!abandoned && bodyStreamTaken(request) && request.body && !request.bodyUsed) {
    await request.body.pipeTo(new WritableStream()).catch(() => undefined);
  }
}

/**
 * What Node cannot parse (a request line or headers past its 16 KiB limit, malformed HTTP)
 * gets a JSON error like every other answer, instead of Node's bare status line.
 */
function answerUnparsable(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable) return;
  const [status, reason, msg] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'Request line or headers too large']
      : [400, 'Bad Request', 'Bad Request'];
  const body = `${JSON.stringify({ result: 'error', msg, code: 'BAD_REQUEST' })}\n`;
  const head = [
    `HTTP/1.1 ${status} ${reason}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...Object.entries(CORS_HEADERS).map(([name, value]) => `${name}: ${value}`),
    'Connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
}

function requestUrl(req: IncomingMessage): URL | null {
  try {
    const url = new URL(req.url ?? '/', `http://${rawHeader(req, 'host') ?? 'localhost'}`);
    // Credentials in the request target mean nothing here, and a platform Request refuses a URL with them.
    if (url.username || url.password) {
      url.username = '';
      url.password = '';
    }
    return url;
  } catch {
    return null;
  }
}

/** Everything but the API, its uploads and the sync protocol is the app's. */
function isAppPath(pathname: string): boolean {
  return !pathname.startsWith(`${API_PREFIX}/`) && !pathname.startsWith('/user_uploads/') && !SyncHub.isSyncPath(pathname);
}

function isPreflight(req: IncomingMessage, url: URL): boolean {
  return (
    req.method === 'OPTIONS' &&
    req.headers['access-control-request-method'] !== undefined &&
    (url.pathname.startsWith(`${API_PREFIX}/`) || url.pathname.startsWith('/user_uploads/') || SyncHub.isSyncPath(url.pathname))
  );
}

async function writeResponse(res: ServerResponse, response: Response): Promise<void> {
  // The engine's JSON answers come as text, unbuilt: one write with their length, and no
  // platform Headers or body stream made for them.
  const answer = unreadJsonAnswer(response);
  if (answer) {
    const headers = withCors(Object.entries(answer.headers));
    headers.push('content-length', String(Buffer.byteLength(answer.text)));
    // A client that hung up meanwhile gets nothing; that is no server fault.
    if (!res.destroyed) res.writeHead(answer.status, headers).end(answer.text);
    return;
  }
  const headers = withCors([...response.headers].filter(([name]) => name !== 'set-cookie'));
  for (const cookie of response.headers.getSetCookie()) headers.push('set-cookie', cookie);
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  try {
    await pipeline(Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>), res);
  } catch (error) {
    // A client that hung up mid-answer is not a server fault.
    if (!res.destroyed) throw error;
  }
}

/** One flat list for `writeHead`, as a bare Node server answers (no per-header `setHeader`), with ours for CORS. */
function withCors(pairs: [string, string][]): string[] {
  const headers: string[] = [];
  for (const [name, value] of pairs) if (!CORS_HEADER_NAMES.has(name.toLowerCase())) headers.push(name, value);
  headers.push(...CORS_HEADER_LIST);
  return headers;
}

function writeJsonError(res: ServerResponse, status: number, msg: string): void {
  const body = `${JSON.stringify({ result: 'error', msg, code: 'BAD_REQUEST' })}\n`;
  res
    .writeHead(status, { ...CORS_HEADERS, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) })
    .end(body);
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS).unref();
  });
}
