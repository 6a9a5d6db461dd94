import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine, HandleOptions } from '../../src/engine/engine.ts';
import { jsonResponse } from '../../src/engine/http/json-response.ts';
import { createNodeServer, type NodeServer } from '../../src/hosts/node-http.ts';
import { createTestRealm, IDS, type TestRealm } from '../support/test-realm.ts';

let servers: NodeServer[] = [];
let realms: TestRealm[] = [];

afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  for (const realm of realms) realm.engine.close();
  servers = [];
  realms = [];
});

/** A stand-in engine: the host's only dependency is `handle`. */
function stubEngine(handle: (request: Request, options?: HandleOptions) => Promise<Response>): Engine {
  return { handle } as unknown as Engine;
}

async function serveStub(handle: (request: Request, options?: HandleOptions) => Promise<Response>): Promise<NodeServer> {
  const server = await createNodeServer(stubEngine(handle), { port: 0 });
  servers.push(server);
  return server;
}

async function serveTestRealm(): Promise<NodeServer> {
  const realm = await createTestRealm();
  realms.push(realm);
  const server = await createNodeServer(realm.engine, { port: 0 });
  servers.push(server);
  return server;
}

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Sends raw bytes and resolves with everything the server wrote back before closing. */
function rawExchange(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(text));
    let answer = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer)).on('error', reject);
  });
}

describe('the Node HTTP host', () => {
  it("answers a request line past Node's header limit with a JSON 431, not a bare status line", async () => {
    const server = await serveTestRealm();
    const answer = await rawExchange(server.port, `GET /api/v1/users/me?x=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    const [head, body] = answer.split('\r\n\r\n');
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(head).toContain('Content-Type: application/json');
    expect(head).toContain('Access-Control-Allow-Origin: *');
    expect(JSON.parse(body)).toEqual({ result: 'error', msg: 'Request line or headers too large', code: 'BAD_REQUEST' });
  });

  it('answers a body declared past 25 MiB at once with a JSON 413 and ends the connection unread', async () => {
    const server = await serveTestRealm();
    const auth = btoa('mark@zulip.test:MarkKey0000000000000000000000004');
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1', () =>
        // The rest of the 400 MB never comes: the answer must not wait for it.
        socket.write(
          `POST /api/v1/messages HTTP/1.1\r\nHost: localhost\r\nAuthorization: Basic ${auth}\r\n` +
            `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${400 * 1024 * 1024}\r\n\r\ntype=stream`,
        ),
      );
      let text = '';
      socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      socket.on('end', () => resolve(text)).on('error', reject);
    });
    const [head, body] = answer.split('\r\n\r\n');
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 413 Payload Too Large');
    expect(head).toContain('Connection: close');
    // The JSON, whichever transfer encoding carried it.
    expect(JSON.parse(/\{.*\}/.exec(body)![0])).toEqual({ result: 'error', msg: 'Request body too large (limit: 25 MiB)', code: 'BAD_REQUEST' });
  });

  it("tells the engine the client's address, for per-address rate limits, and that it writes JSON answers itself", async () => {
    const seen: (HandleOptions | undefined)[] = [];
    const server = await serveStub(async (_request, options) => {
      seen.push(options);
      return new Response(null, { status: 204 });
    });
    await fetch(`${server.url}/api/v1/fetch_api_key`, { method: 'POST', body: 'username=a&password=b' });
    expect(seen).toEqual([{ clientAddress: '127.0.0.1', writesJsonItself: true }]);
  });

  it('binds to loopback by default and reports the port it got', async () => {
    const server = await serveStub(async () => new Response(null, { status: 204 }));
    expect(server.host).toBe('127.0.0.1');
    expect(server.port).toBeGreaterThan(0);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
  });

  it('hands the engine the method, the full URL, every header and the streamed body', async () => {
    const seen = deferred<{ method: string; url: string; auth: string | null; accept: string | null; body: string }>();
    const server = await serveStub(async (request) => {
      seen.resolve({
        method: request.method,
        url: request.url,
        auth: request.headers.get('authorization'),
        accept: request.headers.get('accept'),
        body: await request.text(),
      });
      return new Response('{}\n', { status: 201, headers: { 'Content-Type': 'application/json', 'X-Extra': 'yes' } });
    });
    const response = await fetch(`${server.url}/api/v1/messages/5?x=1&y=2`, {
      method: 'PATCH',
      headers: { Authorization: 'Basic abc', Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'content=edited%20text',
    });
    expect(await seen.promise).toEqual({
      method: 'PATCH',
      url: `${server.url}/api/v1/messages/5?x=1&y=2`,
      auth: 'Basic abc',
      accept: 'application/json',
      body: 'content=edited%20text',
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-extra')).toBe('yes');
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.text()).toBe('{}\n');
  });

  it("hands the engine the URL without the request target's credentials, and repeated lines joined as Headers joins them", async () => {
    const seen = deferred<{ url: string; cookie: string | null; accept: string | null }>();
    const server = await serveStub(async (request) => {
      seen.resolve({ url: request.url, cookie: request.headers.get('cookie'), accept: request.headers.get('Accept') });
      return new Response(null, { status: 204 });
    });
    const target = `http://someone:secret@127.0.0.1:${server.port}/api/v1/x?y=1`;
    const head = `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nCookie: a=1\r\nAccept: text/plain\r\ncookie: b=2\r\naccept: application/json\r\nConnection: close\r\n\r\n`;
    const answer = await rawExchange(server.port, head);

    expect(answer).toMatch(/^HTTP\/1\.1 204 /);
    expect(await seen.promise).toEqual({ url: `http://127.0.0.1:${server.port}/api/v1/x?y=1`, cookie: 'a=1; b=2', accept: 'text/plain, application/json' });
  });

  it('writes every Set-Cookie header of a response separately', async () => {
    const server = await serveStub(async () => {
      const headers = new Headers();
      headers.append('Set-Cookie', 'a=1');
      headers.append('Set-Cookie', 'b=2');
      return new Response(null, { status: 204, headers });
    });
    const response = await fetch(`${server.url}/api/v1/x`);
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
  });

  it('aborts the request signal when the client disconnects, releasing a waiting long-poll', async () => {
    const waiting = deferred<void>();
    const released = deferred<string>();
    const server = await serveStub(
      (request) =>
        new Promise((resolve) => {
          waiting.resolve();
          request.signal.addEventListener('abort', () => {
            released.resolve('aborted');
            resolve(new Response(null, { status: 204 }));
          });
        }),
    );
    const client = httpRequest(`${server.url}/api/v1/events?queue_id=q`);
    client.on('error', () => undefined);
    client.end();
    await waiting.promise;
    client.destroy();
    expect(await released.promise).toBe('aborted');
  });

  it('hands over a signal already aborted when it is first read after the client disconnected', async () => {
    const received = deferred<void>();
    const hungUp = deferred<void>();
    const seen = deferred<{ isRequest: boolean; aborted: boolean }>();
    const server = await serveStub(async (request) => {
      received.resolve();
      await hungUp.promise;
      seen.resolve({ isRequest: request instanceof Request, aborted: request.signal.aborted });
      return new Response(null, { status: 204 });
    });
    server.server.once('connection', (socket) => socket.once('close', () => hungUp.resolve()));
    const client = httpRequest(`${server.url}/api/v1/events?queue_id=q`);
    client.on('error', () => undefined);
    client.end();
    await received.promise;
    client.destroy();
    expect(await seen.promise).toEqual({ isRequest: true, aborted: true });
  });

  it('hands over a signal that is not aborted when it is first read after the whole answer was written', async () => {
    let kept: Request | undefined;
    const server = await serveStub(async (request) => {
      kept = request;
      return new Response('done');
    });
    const closed = deferred<void>();
    server.server.once('request', (_req, res) => res.once('close', () => closed.resolve()));
    const response = await fetch(`${server.url}/api/v1/x`);
    expect(await response.text()).toBe('done');
    await closed.promise;
    expect(kept?.signal.aborted).toBe(false);
  });

  it("writes the engine's JSON answer as it is, with its length and the CORS header", async () => {
    const server = await serveStub(async () => jsonResponse({ result: 'error', msg: 'No', code: 'BAD_REQUEST' }, 401, { 'WWW-Authenticate': 'Basic' }));
    const response = await fetch(`${server.url}/api/v1/x`);
    const body = '{"result":"error","msg":"No","code":"BAD_REQUEST"}\n';
    expect([...response.headers].filter(([name]) => !['connection', 'date', 'keep-alive'].includes(name))).toEqual([
      ['access-control-allow-origin', '*'],
      ['content-length', String(body.length)],
      ['content-type', 'application/json'],
      ['www-authenticate', 'Basic'],
    ]);
    expect([response.status, await response.text()]).toEqual([401, body]);
  });

  it('does not abort the signal of a request whose answer was delivered', async () => {
    let signal: AbortSignal | null = null;
    const server = await serveStub(async (request) => {
      signal = request.signal;
      return new Response('done');
    });
    expect(await (await fetch(`${server.url}/api/v1/x`)).text()).toBe('done');
    expect(signal!.aborted).toBe(false);
  });

  it('sets no server timeout that would cut a 90-second event long-poll', async () => {
    const { server } = await serveStub(async () => new Response(null));
    expect(server.timeout).toBe(0);
    expect(server.requestTimeout).toBeGreaterThan(90_000);
    expect(server.keepAliveTimeout).toBeGreaterThan(60_000);
  });

  it('answers a CORS preflight for the API or an uploaded file itself, without consulting the engine', async () => {
    let calls = 0;
    const server = await serveStub(async () => {
      calls++;
      return new Response(null, { status: 404 });
    });
    for (const path of ['/api/v1/users/me', '/user_uploads/1/ab/AAAAAAAAAAAAAAAAAAAAAAAA/pic.png']) {
      const response = await fetch(`${server.url}${path}`, {
        method: 'OPTIONS',
        headers: { Origin: 'http://app.example', 'Access-Control-Request-Method': 'PATCH' },
      });
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-methods')).toBe('GET, POST, PATCH, PUT, DELETE, OPTIONS');
    }
    expect(calls).toBe(0);
  });

  it('passes an OPTIONS request that is not a preflight to the engine, which lists the allowed methods', async () => {
    const server = await serveTestRealm();
    const response = await fetch(`${server.url}/api/v1/fetch_api_key`, { method: 'OPTIONS' });
    expect(response.status).toBe(204);
    expect(response.headers.get('allow')).toBe('POST');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('answers a request whose Host header is not a valid host with a 400 error JSON', async () => {
    let calls = 0;
    const server = await serveStub(async () => {
      calls++;
      return new Response(null);
    });
    const answer = await rawExchange(server.port, 'GET /api/v1/x HTTP/1.1\r\nHost: [bad\r\nConnection: close\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(answer).toContain('Access-Control-Allow-Origin: *');
    expect(answer.endsWith('{"result":"error","msg":"Bad Request","code":"BAD_REQUEST"}\n')).toBe(true);
    expect(calls).toBe(0);
  });

  it('carries a multipart body, as zulip-js sends it, through to the engine', async () => {
    const server = await serveTestRealm();
    const form = new FormData();
    form.append('username', 'mark@zulip.test');
    form.append('password', 'mark-pass');
    const response = await fetch(`${server.url}/api/v1/fetch_api_key`, { method: 'POST', body: form });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      result: 'success',
      msg: '',
      api_key: 'MarkKey0000000000000000000000004',
      email: 'mark@zulip.test',
      user_id: IDS.mark,
    });
  });

  it('answers HEAD without a body', async () => {
    const server = await serveTestRealm();
    const response = await fetch(`${server.url}/api/v1/no/such/endpoint`, { method: 'HEAD' });
    expect(response.status).toBe(404);
    expect(await response.text()).toBe('');
  });

  it('keeps a keep-alive connection usable after a large body the engine did not read', async () => {
    const server = await serveStub(async () => new Response('ok'));
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const post = (body: string) =>
      new Promise<string>((resolve, reject) => {
        const req = httpRequest(`${server.url}/api/v1/x`, { method: 'POST', agent }, (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve(`${res.statusCode} ${text}`));
        });
        req.on('error', reject).end(body);
      });
    try {
      expect(await post('x'.repeat(5_000_000))).toBe('200 ok');
      expect(await post('small')).toBe('200 ok');
      expect(await post('small')).toBe('200 ok');
    } finally {
      agent.destroy();
    }
  });

  it('closes even while a long-poll is still waiting, by ending that connection', async () => {
    const waiting = deferred<void>();
    const aborted = deferred<void>();
    const server = await serveStub(
      (request) =>
        new Promise((resolve) => {
          waiting.resolve();
          request.signal.addEventListener('abort', () => {
            aborted.resolve();
            resolve(new Response(null, { status: 204 }));
          });
        }),
    );
    const client = httpRequest(`${server.url}/api/v1/events`);
    client.on('error', () => undefined);
    client.end();
    await waiting.promise;
    await server.close();
    await aborted.promise;
    servers = servers.filter((s) => s !== server);
  });
});
