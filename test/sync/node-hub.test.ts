import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeServer, type NodeServer } from '../../src/hosts/node-http.ts';
import { PROVISIONAL_ID_BASE } from '../../src/sync/protocol.ts';
import { basicAuth, killServeProcesses, startServe, writeScenarioFile } from '../node-host/serve-process.ts';
import { eventsOf, SyncWorld, userRow } from './sync-fixture.ts';

let world: SyncWorld;
let server: NodeServer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await world?.close();
  killServeProcesses();
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('the Node host as a sync hub', () => {
  it('carries a message between two replicas over real sockets at /sync/v1/', async () => {
    world = await SyncWorld.create();
    server = await createNodeServer(world.hubEngine, { port: 0, syncHub: world.hub });
    const overHttp = { fetch: (request: Request) => fetch(request), hubUrl: server.url };
    const mark = await world.replicaOf('mark', overHttp);
    const mia = await world.replicaOf('mia', overHttp);
    expect(await mark.replica.sync()).toBe('online');
    expect(await mia.replica.sync()).toBe('online');
    const miaQueue = mia.openQueue();

    await mark.api.post('/messages', { type: 'stream', to: 'general', topic: 'wire', content: 'over the wire' });
    expect(await mark.replica.sync()).toBe('online');
    expect(await mia.replica.sync()).toBe('online');

    expect(eventsOf(miaQueue, 'message').map((e) => (e.message as { id: number; content: string }).content)).toEqual(['<p>over the wire</p>']);
    expect(await SyncWorld.messagesSeen(mia.api)).toEqual(await SyncWorld.messagesSeen(world.onHub('mia')));
  });

  it('answers a browser\'s preflight for the peer protocol', async () => {
    world = await SyncWorld.create();
    server = await createNodeServer(world.hubEngine, { port: 0, syncHub: world.hub });
    const response = await fetch(`${server.url}/sync/v1/push`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://elsewhere.test', 'Access-Control-Request-Method': 'POST' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type');
  });

  it('answers a push declared past its 8 MiB with its 413 JSON before the body has arrived', async () => {
    world = await SyncWorld.create();
    server = await createNodeServer(world.hubEngine, { port: 0, syncHub: world.hub });
    const row = userRow('mark');
    const auth = `Basic ${btoa(`${row.email}:${row.api_key}`)}`;
    const head = `POST /sync/v1/push HTTP/1.1\r\nHost: hub.test\r\nAuthorization: ${auth}\r\nContent-Type: application/json\r\nContent-Length: ${9 * 1024 * 1024}\r\n\r\n{"mutations":`;
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(server!.port, '127.0.0.1', () => socket.write(head));
      let text = '';
      socket.setEncoding('utf8').on('data', (chunk: string) => {
        text += chunk;
        // The whole answer is in once its JSON line is: the rest of the body was never asked for.
        if (/\r\n\r\n.*\n$/s.test(text)) socket.destroy();
      });
      socket.on('close', () => resolve(text)).on('error', reject);
    });

    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer.slice(answer.indexOf('\r\n\r\n') + 4)).toBe('{"result":"error","msg":"Request body too large","code":"BAD_REQUEST"}\n');
  });

  it('leaves /sync/v1/ to the API\'s 404 where no hub is served', async () => {
    world = await SyncWorld.create();
    server = await createNodeServer(world.hubEngine, { port: 0 });
    const response = await fetch(`${server.url}/sync/v1/snapshot`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ result: 'error', msg: 'Not Found', code: 'BAD_REQUEST' });
  });

  it('keeps a replica\'s pending change across a restart of `npm run serve` on its --data: pushed once, no resync', { timeout: 60_000 }, async () => {
    dir = mkdtempSync(join(tmpdir(), 'sync-hub-'));
    const scenario = writeScenarioFile(dir);
    const data = join(dir, 'data');
    let hub = await startServe(['--port', '0', '--scenario', scenario, '--data', data]);
    // The replica names one hub; the link follows it to whichever port it listens on now.
    const follow = (request: Request) => fetch(new Request(hub.url + new URL(request.url).pathname, request));
    world = await SyncWorld.create();
    const mark = await world.replicaOf('mark', { fetch: follow, hubUrl: 'http://trainer.test:9991' });
    expect(await mark.replica.sync()).toBe('online');
    const queue = mark.openQueue();

    hub.child.kill('SIGTERM');
    await hub.exited;
    const sent = await mark.api.post('/messages', { type: 'stream', to: 'general', topic: 'restart', content: 'sent while the hub was down' });
    expect(sent.body.id).toBe(PROVISIONAL_ID_BASE);
    expect(await mark.replica.sync()).toBe('offline');

    hub = await startServe(['--port', '0', '--data', data]);
    expect(await mark.replica.sync()).toBe('online');
    // The queue outlived the round: the replica kept its checkpoint instead of starting again.
    expect(eventsOf(queue, 'message').map((e) => (e.message as { id: number }).id)).toEqual([PROVISIONAL_ID_BASE, 5]);
    const row = userRow('mark');
    const onHub = await fetch(`${hub.url}/api/v1/messages?anchor=newest&num_before=10&num_after=0`, { headers: basicAuth(row.email, row.api_key) });
    const contents = ((await onHub.json()) as { messages: { content: string }[] }).messages.map((m) => m.content);
    expect(contents.filter((c) => c.includes('sent while the hub was down'))).toHaveLength(1);
  });
});
