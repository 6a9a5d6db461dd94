import { afterEach, describe, expect, it } from 'vitest';
import { pathIdFromUrlPath } from '../../src/engine/storage/upload-paths.ts';
import { IDS } from '../support/test-realm.ts';
import type { TestUser } from '../support/test-realm.ts';
import { type SyncWorld, syncedWorld, type TestReplica, userRow } from './sync-fixture.ts';

let world: SyncWorld;
afterEach(() => world?.close());

const authorization = (user: TestUser) => {
  const row = userRow(user);
  return `Basic ${btoa(`${row.email}:${row.api_key}`)}`;
};

/** `POST /api/v1/user_uploads` with one file, as the web app sends it, to a replica's or the hub's `handle`. */
async function upload(handle: (request: Request) => Promise<Response>, user: TestUser, content: string, name: string) {
  const form = new FormData();
  form.append('filename', new Blob([content], { type: 'text/plain' }), name);
  const response = await handle(new Request('http://local.test/api/v1/user_uploads', { method: 'POST', headers: { Authorization: authorization(user) }, body: form }));
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

/** A file's URL path fetched from a replica as its user's client would (Basic auth). */
async function readFile(replica: TestReplica, url: string) {
  const response = await replica.replica.handle(new Request(`http://local.test${url}`, { headers: { Authorization: authorization(replica.user) } }));
  return { status: response.status, type: response.headers.get('content-type'), disposition: response.headers.get('content-disposition'), text: await response.text() };
}

const fileCalls = (replica: TestReplica): string[] => replica.link.calls.filter((path) => path.startsWith('/sync/v1/file/'));

describe('files on a synced replica', () => {
  it('uploads through the hub while it can be reached: the hub holds the file and its row, and the replica answers as the API and lists it', async () => {
    let replicas;
    ({ world, replicas } = await syncedWorld('mark', 'mia'));
    const { mark } = replicas;

    const answer = await upload((request) => mark.replica.handle(request), 'mark', 'hello', 'notes.txt');

    expect(answer.status).toBe(200);
    const onHub = await upload((request) => world.hubEngine.handle(request), 'mark', 'other', 'notes.txt');
    expect(Object.keys(answer.body).sort()).toEqual(Object.keys(onHub.body).sort());
    expect(answer.body).toEqual({ result: 'success', msg: '', uri: answer.body.url, url: expect.stringMatching(/^\/user_uploads\/1\/[0-9a-f]{2}\/[A-Za-z0-9_-]{24}\/notes\.txt$/), filename: 'notes.txt' });
    const pathId = pathIdFromUrlPath((answer.body.url as string).slice('/user_uploads/'.length))!;
    expect(new TextDecoder().decode((await world.hubEngine.uploads.get(pathId))!)).toBe('hello');
    expect(await world.hubEngine.db.attachments.where('path_id').equals(pathId).first()).toMatchObject({ owner_id: IDS.mark, file_name: 'notes.txt', size: 5 });
    expect(await mark.replica.sync()).toBe('online');
    expect((await mark.api.get('/attachments')).body).toEqual((await world.onHub('mark').get('/attachments')).body);
    // The replica keeps the bytes: its user reads the file locally, with the link cut.
    mark.link.cut = true;
    expect(await readFile(mark, answer.body.url as string)).toMatchObject({ status: 200, text: 'hello' });
    expect(fileCalls(mark)).toEqual([]);
  });

  it('brings a message linking an upload to the other replica, which fetches the file from the hub once and then serves it itself', async () => {
    let replicas;
    ({ world, replicas } = await syncedWorld('mark', 'mia'));
    const { mark, mia } = replicas;
    const { body: uploaded } = await upload((request) => mark.replica.handle(request), 'mark', 'the plan', 'plan.txt');
    const url = uploaded.url as string;

    expect((await mark.api.post('/messages', { type: 'stream', to: 'general', topic: 'plans', content: `[plan.txt](${url})` })).status).toBe(200);
    expect(await mark.replica.sync()).toBe('online');
    expect(await mia.replica.sync()).toBe('online');

    const hubMessage = (await world.hubEngine.db.messages.toArray()).at(-1)!;
    expect(hubMessage.content).toBe(`[plan.txt](${url})`);
    expect((await world.hubEngine.db.attachments.where('path_id').equals(pathIdFromUrlPath(url.slice('/user_uploads/'.length))!).first())!.message_ids).toEqual([hubMessage.id]);
    expect((await mia.api.get(`/messages/${hubMessage.id}`)).body.message).toMatchObject({ content: `<p><a href="${url}">plan.txt</a></p>` });

    const hubAnswer = await world.hubEngine.handle(new Request(`http://hub.test${url}`, { headers: { Authorization: authorization('mia') } }));
    const expected = { status: 200, type: hubAnswer.headers.get('content-type'), disposition: hubAnswer.headers.get('content-disposition'), text: 'the plan' };
    expect(await readFile(mia, url)).toEqual(expected);
    expect(fileCalls(mia)).toHaveLength(1);
    mia.link.cut = true;
    expect(await readFile(mia, url)).toEqual(expected);
    expect(fileCalls(mia)).toHaveLength(1);
  });

  it('refuses an upload while the hub cannot be reached, keeping nothing', async () => {
    let replicas;
    ({ world, replicas } = await syncedWorld('mark'));
    const { mark } = replicas;
    mark.link.cut = true;

    const answer = await upload((request) => mark.replica.handle(request), 'mark', 'hello', 'notes.txt');

    expect(answer).toEqual({
      status: 503,
      body: { result: 'error', msg: 'This action needs the hub (http://hub.test:9991), which cannot be reached right now', code: 'SYNC_HUB_UNREACHABLE' },
    });
    expect(await mark.replica.engine.db.attachments.count()).toBe(0);
    expect(await world.hubEngine.db.attachments.count()).toBe(0);
    expect(await mark.replica.status()).toBe('offline');
  });

  it('gives a user who may not read a file the API\'s refusal, and the engine\'s 404 offline for a file it does not hold', async () => {
    let replicas;
    ({ world, replicas } = await syncedWorld('mark', 'mia'));
    const { mark, mia } = replicas;
    const { body: uploaded } = await upload((request) => mark.replica.handle(request), 'mark', 'secret plan', 'plan.txt');
    const url = uploaded.url as string;
    // Linked only in a private channel Mia is not in.
    expect((await mark.api.post('/messages', { type: 'stream', to: 'secret', topic: 'plans', content: `[plan.txt](${url})` })).status).toBe(200);
    expect(await mark.replica.sync()).toBe('online');

    const refused = await readFile(mia, url);
    expect({ ...refused, text: JSON.parse(refused.text) }).toEqual({
      status: 403,
      type: 'application/json',
      disposition: null,
      text: { result: 'error', msg: 'You are not authorized to view this file.', code: 'BAD_REQUEST' },
    });
    expect(await mia.replica.engine.db.sync_files.count()).toBe(0);

    mia.link.cut = true;
    const offline = await readFile(mia, url);
    expect({ status: offline.status, body: JSON.parse(offline.text) }).toEqual({
      status: 404,
      body: { result: 'error', msg: 'This file does not exist or has been deleted.', code: 'BAD_REQUEST' },
    });
  });

  it('serves a file over sync only to a caller who authenticates, though its address alone opens it on the API', async () => {
    let replicas;
    ({ world, replicas } = await syncedWorld('mark'));
    const { body: uploaded } = await upload((request) => replicas.mark.replica.handle(request), 'mark', 'hello', 'notes.txt');
    const rest = (uploaded.url as string).slice('/user_uploads/'.length);

    expect(await world.peerCall(null, 'GET', `/file/${rest}`)).toEqual({
      status: 401,
      body: { result: 'error', msg: 'Missing authorization header for basic auth', code: 'UNAUTHORIZED' },
    });
    expect((await world.hubEngine.handle(new Request(`http://hub.test/user_uploads/${rest}`))).status).toBe(200);
  });

  it('refuses at the hub an upload with no credentials or no file, with the API\'s error, storing nothing', async () => {
    ({ world } = await syncedWorld('mark'));
    const hubUpload = (form: FormData, headers: Record<string, string> = {}) =>
      world.hub.handle(new Request('http://hub.test/sync/v1/upload?version=2', { method: 'POST', headers, body: form }));
    const withFile = new FormData();
    withFile.append('filename', new Blob(['secret'], { type: 'text/plain' }), 'notes.txt');
    const anonymous = await hubUpload(withFile);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ result: 'error', msg: 'Missing authorization header for basic auth', code: 'UNAUTHORIZED' });

    const noFile = new FormData();
    noFile.append('note', 'no file here');
    const empty = await hubUpload(noFile, { Authorization: authorization('mark') });
    const direct = await world.hubEngine.handle(new Request('http://hub.test/api/v1/user_uploads', { method: 'POST', headers: { Authorization: authorization('mark') }, body: noFile }));
    expect(empty.status).toBe(400);
    expect({ status: empty.status, body: await empty.json() }).toEqual({ status: direct.status, body: await direct.json() });
    expect(await world.hubEngine.db.attachments.count()).toBe(0);
  });
});
