import { describe, expect, it } from 'vitest';
import { exportRealm, importRealm } from '../../src/engine/realm-archive/realm-archive.ts';
import { expectRefused } from '../support/expect-refused.ts';
import { createTestRealm, IDS, openQueue, TEST_SCENARIO, type TestRealm } from '../support/test-realm.ts';

const PATH_SHAPE = /^\/user_uploads\/1\/[0-9a-f]{2}\/[A-Za-z0-9_-]{24}\/([^/]+)$/;
const text = (content: string, name: string, type = 'text/plain') => new File([content], name, { type });

async function upload(realm: TestRealm, file: File, user: Parameters<TestRealm['as']>[0] = 'mark') {
  const answer = await realm.as(user).upload(file);
  expect(answer.status).toBe(200);
  return answer.body.url as string;
}

describe('POST /user_uploads', () => {
  it('stores the file and answers its url (also as the deprecated uri) and the name it was uploaded with', async () => {
    const realm = await createTestRealm();
    const queue = openQueue(realm.engine, IDS.mark);
    const answer = await realm.as('mark').upload(text('zulip!', 'my notes.txt'));
    expect(answer.status).toBe(200);
    const { url } = answer.body;
    expect(answer.body).toEqual({ result: 'success', msg: '', uri: url, url, filename: 'my notes.txt' });
    expect(PATH_SHAPE.exec(url)?.[1]).toBe('my-notes.txt');
    const file = await realm.as('mark').fetchFile(url);
    expect(file.status).toBe(200);
    expect(await file.text()).toBe('zulip!');
    expect(queue.events).toEqual([
      {
        id: 0,
        type: 'attachment',
        op: 'add',
        attachment: { id: 1, name: 'my notes.txt', path_id: url.slice('/user_uploads/'.length), size: 6, create_time: realm.clock.now(), messages: [] },
        upload_space_used: 6,
      },
    ]);
  });

  it('sanitizes the stored name as upstream does, keeping letters of any script', async () => {
    const realm = await createTestRealm();
    const url = await upload(realm, text('x', 'Ünïcode  résumé (final)!.txt'));
    expect(decodeURIComponent(PATH_SHAPE.exec(url)![1])).toBe('Ünïcode-résumé-final.txt');
    expect(PATH_SHAPE.exec(await upload(realm, text('x', '..')))?.[1]).toBe('uploaded-file');
  });

  it('lets a guest upload', async () => {
    const realm = await createTestRealm();
    expect(await upload(realm, text('from a guest', 'g.txt'), 'gail')).toMatch(PATH_SHAPE);
  });

  it('refuses a request without a file, with two files, or over the realm’s size limit, leaving nothing behind', async () => {
    const realm = await createTestRealm({ ...TEST_SCENARIO, realm: { ...TEST_SCENARIO.realm, max_file_upload_size_mib: 1 } });
    const mark = realm.as('mark');
    await expectRefused(realm, () => mark.post('/user_uploads', {}), { result: 'error', msg: 'You must specify a file to upload', code: 'BAD_REQUEST' });
    await expectRefused(realm, () => mark.upload(text('a', 'a.txt'), text('b', 'b.txt')), {
      result: 'error',
      msg: 'You may only upload one file at a time',
      code: 'BAD_REQUEST',
    });
    const tooLarge = { result: 'error', msg: "File is larger than this server's configured maximum upload size (1 MiB).", code: 'BAD_REQUEST' };
    await expectRefused(realm, () => mark.upload(new File([new Uint8Array(1024 * 1024 + 1)], 'big.bin')), tooLarge);
    expect((await mark.upload(new File([new Uint8Array(1024 * 1024)], 'exact.bin'))).status).toBe(200);
  });

  it('refuses a body far over the limit before reading it all', async () => {
    const realm = await createTestRealm({ ...TEST_SCENARIO, realm: { ...TEST_SCENARIO.realm, max_file_upload_size_mib: 1 } });
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 65536;
        controller.enqueue(new Uint8Array(65536));
      },
    });
    const response = await realm.engine.handle(
      new Request('http://zulip.test/api/v1/user_uploads', {
        method: 'POST',
        headers: {
          Authorization: `Basic ${btoa('mark@zulip.test:MarkKey0000000000000000000000004')}`,
          'Content-Type': 'multipart/form-data; boundary=x',
        },
        body: endless,
        duplex: 'half',
      } as RequestInit),
    );
    expect(response.status).toBe(400);
    expect((await response.json()).msg).toBe("File is larger than this server's configured maximum upload size (1 MiB).");
    expect(pulled).toBeLessThan(4 * 1024 * 1024);
    expect((await realm.as('mark').get('/attachments')).body).toMatchObject({ attachments: [], upload_space_used: 0 });
  });

  it('sends the realm’s max_file_upload_size_mib in /register', async () => {
    const realm = await createTestRealm();
    const state = await realm.as('mark').post('/register', { fetch_event_types: ['realm'] });
    expect(state.body.max_file_upload_size_mib).toBe(25);
  });
});

describe('reading uploaded files', () => {
  it('serves an image inline with its type, and everything else as a download that cannot run script', async () => {
    const realm = await createTestRealm();
    const image = await realm.as('mark').fetchFile(await upload(realm, new File(['PNG'], 'pic.png', { type: 'image/png' })));
    expect(Object.fromEntries(image.headers)).toMatchObject({
      'content-type': 'image/png',
      'content-disposition': 'inline; filename="pic.png"',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
    });
    for (const [name, type] of [
      ['page.html', 'text/html'],
      ['logo.svg', 'image/svg+xml'],
    ]) {
      const served = await realm.as('mark').fetchFile(await upload(realm, new File(['<script>alert(1)</script>'], name, { type })));
      expect(Object.fromEntries(served.headers)).toMatchObject({
        'content-type': type,
        'content-disposition': `attachment; filename="${name}"`,
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; sandbox",
      });
    }
  });

  it('guesses the type from the name when the client sends none', async () => {
    const realm = await createTestRealm();
    const served = await realm.as('mark').fetchFile(await upload(realm, new File(['PNG'], 'pic.png')));
    expect(served.headers.get('content-type')).toBe('image/png');
    const other = await realm.as('mark').fetchFile(await upload(realm, new File(['?'], 'somefile')));
    expect(other.headers.get('content-type')).toBe('application/octet-stream');
  });

  it('with Basic auth serves only a user who may access the file; without, the path is the capability', async () => {
    const realm = await createTestRealm();
    const url = await upload(realm, text('mine', 'mine.txt'));
    expect((await realm.as('mark').fetchFile(url)).status).toBe(200);
    const other = await realm.as('mia').fetchFile(url);
    expect(other.status).toBe(403);
    expect(await other.json()).toEqual({ result: 'error', msg: 'You are not authorized to view this file.', code: 'BAD_REQUEST' });
    expect(await (await realm.anonymous().fetchFile(url, false)).text()).toBe('mine');
    expect((await realm.as('mark').fetchFile(url.replace(/\/[^/]+$/, '/other.txt'))).status).toBe(404);
    expect((await realm.anonymous().fetchFile('/user_uploads/1/ab/AAAAAAAAAAAAAAAAAAAAAAAA/x.txt', false)).status).toBe(404);
    const badKey = await realm.engine.handle(
      new Request(`http://zulip.test${url}`, { headers: { Authorization: `Basic ${btoa('mark@zulip.test:WrongKey000000000000000000000000')}` } }),
    );
    expect(badKey.status).toBe(401);
  });

  it('serves /user_uploads/download/... as a download even for an image', async () => {
    const realm = await createTestRealm();
    const url = await upload(realm, new File(['PNG'], 'pic.png', { type: 'image/png' }));
    const served = await realm.as('mark').fetchFile(url.replace('/user_uploads/', '/user_uploads/download/'));
    expect(served.headers.get('content-disposition')).toBe('attachment; filename="pic.png"');
  });
});

describe('GET /user_uploads/{realm_id_str}/{filename}', () => {
  it('answers a temporary URL that opens the file without credentials for a minute', async () => {
    const realm = await createTestRealm();
    const url = await upload(realm, text('zulip!', 'zulip.txt'));
    const answer = await realm.as('mark').get(url.slice('/user_uploads'.length).replace(/^/, '/user_uploads'));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ result: 'success', msg: '', url: expect.stringMatching(/^\/user_uploads\/temporary\/[0-9A-F]{48}\/zulip\.txt$/) });
    const temporary = answer.body.url as string;
    expect(await (await realm.anonymous().fetchFile(temporary, false)).text()).toBe('zulip!');
    const renamed = await realm.anonymous().fetchFile(temporary.replace(/zulip\.txt$/, 'other.exe'), false);
    expect(await renamed.json()).toEqual({ result: 'error', msg: 'Invalid filename', code: 'BAD_REQUEST' });
    realm.clock.advance(61_000);
    const expired = await realm.anonymous().fetchFile(temporary, false);
    expect(expired.status).toBe(400);
    expect(await expired.json()).toEqual({ result: 'error', msg: 'Invalid token', code: 'BAD_REQUEST' });
  });

  it('refuses a file the caller may not access (403) or that does not exist (404)', async () => {
    const realm = await createTestRealm();
    const url = await upload(realm, text('mine', 'mine.txt'));
    const other = await realm.as('mia').get(url);
    expect([other.status, other.body]).toEqual([403, { result: 'error', msg: 'You are not authorized to view this file.', code: 'BAD_REQUEST' }]);
    const missing = await realm.as('mark').get('/user_uploads/1/ab/AAAAAAAAAAAAAAAAAAAAAAAA/x.txt');
    expect([missing.status, missing.body]).toEqual([404, { result: 'error', msg: 'This file does not exist or has been deleted.', code: 'BAD_REQUEST' }]);
  });
});

describe('messages that link uploads', () => {
  it('claim the sender’s upload: its readers may fetch it, the attachment lists the message, has:attachment finds it', async () => {
    const realm = await createTestRealm();
    const url = await upload(realm, text('shared', 'shared.txt'));
    const queue = openQueue(realm.engine, IDS.mark);
    const sent = await realm.as('mark').post('/messages', { type: 'channel', to: 'general', topic: 'files', content: `[shared.txt](${url})` });
    expect((await realm.as('mia').fetchFile(url)).status).toBe(200);
    expect((await realm.as('mia').get(url)).status).toBe(200);
    const attachments = await realm.as('mark').get('/attachments');
    expect(attachments.body).toEqual({
      result: 'success',
      msg: '',
      attachments: [
        expect.objectContaining({ id: 1, name: 'shared.txt', messages: [{ id: sent.body.id, date_sent: realm.clock.now() }] }),
      ],
      upload_space_used: 6,
    });
    expect(queue.events.map((e) => [e.type, e.op])).toEqual([
      ['attachment', 'update'],
      ['message', undefined],
    ]);
    const found = await realm.as('mia').get('/messages', {
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
      narrow: [{ operator: 'has', operand: 'attachment' }],
    });
    expect(found.body.messages.map((m: { id: number }) => m.id)).toEqual([sent.body.id]);
  });

  it('do not claim a file the sender may not access, and do not open it to anyone', async () => {
    const realm = await createTestRealm();
    const url = await upload(realm, text('private', 'p.txt'));
    await realm.as('mia').post('/messages', { type: 'channel', to: 'general', topic: 'steal', content: `[p.txt](${url})` });
    expect((await realm.as('olivia').get(url)).status).toBe(403);
    const narrow = [{ operator: 'has', operand: 'attachment' }];
    const found = await realm.as('mia').get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow });
    expect(found.body.messages).toEqual([]);
  });

  it('show an uploaded image with upstream’s inline preview markup', async () => {
    const realm = await createTestRealm();
    const url = await upload(realm, new File(['PNG'], 'scene.png', { type: 'image/png' }));
    const sent = await realm.as('mark').post('/messages', { type: 'channel', to: 'general', topic: 'pics', content: `Look:\n[scene.png](${url})` });
    const message = (await realm.as('mia').get(`/messages/${sent.body.id}`)).body.message;
    expect(message.content).toBe(
      `<p>Look:<br>\n<a href="${url}">scene.png</a></p>\n` +
        `<div class="message_inline_image"><a href="${url}" title="scene.png"><img src="${url}"></a></div>`,
    );
    const narrow = [{ operator: 'has', operand: 'image' }];
    const found = await realm.as('mia').get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow });
    expect(found.body.messages.map((m: { id: number }) => m.id)).toEqual([sent.body.id]);
  });

  it('edited to drop the link detach the upload and report it in detached_uploads', async () => {
    const realm = await createTestRealm();
    const url = await upload(realm, text('x', 'x.txt'));
    const sent = await realm.as('mark').post('/messages', { type: 'channel', to: 'general', topic: 'edit', content: `[x.txt](${url})` });
    const edited = await realm.as('mark').patch(`/messages/${sent.body.id}`, { content: 'never mind' });
    expect(edited.body).toEqual({
      result: 'success',
      msg: '',
      detached_uploads: [expect.objectContaining({ id: 1, name: 'x.txt', messages: [] })],
    });
    expect((await realm.as('mia').get(url)).status).toBe(403);
  });

  it('deleted no longer open the file', async () => {
    const realm = await createTestRealm();
    const url = await upload(realm, text('x', 'x.txt'));
    const sent = await realm.as('mark').post('/messages', { type: 'channel', to: 'general', topic: 'gone', content: `[x.txt](${url})` });
    await realm.as('mark').delete(`/messages/${sent.body.id}`);
    expect((await realm.as('mia').get(url)).status).toBe(403);
    expect((await realm.as('mark').get('/attachments')).body.attachments[0].messages).toEqual([]);
  });
});

describe('DELETE /attachments/{attachment_id}', () => {
  it('removes the owner’s upload and its bytes, telling the owner', async () => {
    const realm = await createTestRealm();
    const url = await upload(realm, text('bye', 'bye.txt'));
    const queue = openQueue(realm.engine, IDS.mark);
    const removed = await realm.as('mark').delete('/attachments/1');
    expect(removed.body).toEqual({ result: 'success', msg: '' });
    expect(queue.events).toEqual([{ id: 0, type: 'attachment', op: 'remove', attachment: { id: 1 }, upload_space_used: 0 }]);
    expect((await realm.anonymous().fetchFile(url, false)).status).toBe(404);
    expect(await realm.engine.uploads.get(url.slice('/user_uploads/'.length))).toBeNull();
    expect((await realm.as('mark').get('/attachments')).body.attachments).toEqual([]);
  });

  it('refuses someone else’s upload and an unknown id alike', async () => {
    const realm = await createTestRealm();
    await upload(realm, text('mine', 'mine.txt'));
    const invalid = { result: 'error', msg: 'Invalid attachment', code: 'BAD_REQUEST' };
    await expectRefused(realm, () => realm.as('mia').delete('/attachments/1'), invalid);
    await expectRefused(realm, () => realm.as('mark').delete('/attachments/99'), invalid);
  });
});

describe('uploads when the realm is replaced', () => {
  it('keeps the files an imported archive of this realm names, and the archive holds their metadata', async () => {
    const realm = await createTestRealm();
    const url = await upload(realm, text('kept', 'kept.txt'));
    const archive = JSON.parse(JSON.stringify(await exportRealm(realm.engine)));
    expect(archive.tables.attachments).toEqual([expect.objectContaining({ path_id: url.slice('/user_uploads/'.length), file_name: 'kept.txt' })]);
    await importRealm(realm.engine, archive);
    expect(await (await realm.as('mark').fetchFile(url)).text()).toBe('kept');
  });

  it('imports an archive made before uploads existed, dropping every file', async () => {
    const realm = await createTestRealm();
    const url = await upload(realm, text('old', 'old.txt'));
    const archive = JSON.parse(JSON.stringify(await exportRealm(realm.engine)));
    delete archive.tables.attachments;
    await importRealm(realm.engine, archive);
    expect((await realm.as('mark').get('/attachments')).body.attachments).toEqual([]);
    expect(await realm.engine.uploads.get(url.slice('/user_uploads/'.length))).toBeNull();
  });

  it('forgets every file when a scenario replaces the realm', async () => {
    const realm = await createTestRealm();
    const url = await upload(realm, text('gone', 'gone.txt'));
    await realm.engine.loadScenario(TEST_SCENARIO);
    expect(await realm.engine.uploads.get(url.slice('/user_uploads/'.length))).toBeNull();
    expect((await realm.anonymous().fetchFile(url, false)).status).toBe(404);
  });
});

describe('inline previews', () => {
  it('are given to uploaded images only, not to other uploads or to images elsewhere', async () => {
    const realm = await createTestRealm();
    const file = await upload(realm, text('x', 'notes.txt'));
    const sent = await realm.as('mark').post('/messages', {
      type: 'channel',
      to: 'general',
      topic: 'no previews',
      content: `[notes.txt](${file}) and [elsewhere](https://example.com/pic.png)`,
    });
    const message = (await realm.as('mark').get(`/messages/${sent.body.id}`)).body.message;
    expect(message.content).not.toContain('message_inline_image');
  });
});
